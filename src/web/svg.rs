//! A small SVG builder that escapes by construction: element and attribute
//! names are `&'static str` (constants, never input), every attribute value
//! and every text goes through [`escape`]. What it builds is [`Svg`], the
//! only markup a template prints unescaped (askama's `HtmlSafe`), so no page
//! prints `format!`ed user text with `|safe`.

use std::fmt::{self, Display};

/// Escapes text for SVG/HTML content and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate as the drawings write it: rounded to a whole number.
pub fn whole(x: f64) -> String {
    format!("{x:.0}")
}

/// An attribute list: names are constants, values any `Display`, escaped.
pub type Attrs<'a> = &'a [(&'static str, &'a dyn Display)];

/// SVG markup under construction.
#[derive(Debug, Default)]
pub struct SvgBuilder {
    out: String,
}

impl SvgBuilder {
    fn tag(&mut self, name: &'static str, attrs: Attrs<'_>) {
        self.out.push('<');
        self.out.push_str(name);
        for (key, value) in attrs {
            self.out.push(' ');
            self.out.push_str(key);
            self.out.push_str("=\"");
            self.out.push_str(&escape(&value.to_string()));
            self.out.push('"');
        }
    }

    /// `<name attrs…>`; close it with [`SvgBuilder::close`].
    pub fn open(&mut self, name: &'static str, attrs: Attrs<'_>) -> &mut Self {
        self.tag(name, attrs);
        self.out.push('>');
        self
    }

    /// `</name>`.
    pub fn close(&mut self, name: &'static str) -> &mut Self {
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
        self
    }

    /// `<name attrs…/>`.
    pub fn empty(&mut self, name: &'static str, attrs: Attrs<'_>) -> &mut Self {
        self.tag(name, attrs);
        self.out.push_str("/>");
        self
    }

    /// Text content, escaped.
    pub fn text(&mut self, text: impl Display) -> &mut Self {
        self.out.push_str(&escape(&text.to_string()));
        self
    }

    /// `<name attrs…>text</name>`.
    pub fn element(
        &mut self,
        name: &'static str,
        attrs: Attrs<'_>,
        text: impl Display,
    ) -> &mut Self {
        self.open(name, attrs).text(text).close(name)
    }

    /// Opens a chart's `<svg>` root: an image labelled `caption`, with its
    /// class, element id and view box; close it with `close("svg")`.
    pub fn open_chart(
        &mut self,
        class: &str,
        id: &str,
        view_box: &dyn Display,
        caption: &str,
    ) -> &mut Self {
        self.open(
            "svg",
            &[
                ("class", &class),
                ("id", &id),
                ("viewBox", view_box),
                ("role", &"img"),
                ("aria-label", &caption),
                ("xmlns", &"http://www.w3.org/2000/svg"),
            ],
        )
    }

    /// A `width` by `height` rectangle filled white at the origin: a
    /// chart's background.
    pub fn white_background(&mut self, width: f64, height: f64) -> &mut Self {
        self.empty(
            "rect",
            &[
                ("x", &0),
                ("y", &0),
                ("width", &width),
                ("height", &height),
                ("fill", &"#fff"),
            ],
        )
    }

    pub fn finish(self) -> Svg {
        Svg(self.out)
    }
}

/// Finished SVG markup: made only by [`SvgBuilder`], printed as is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Svg(String);

impl Display for Svg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl askama::filters::HtmlSafe for Svg {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_values_and_text_are_escaped() {
        let mut s = SvgBuilder::default();
        s.open("g", &[("class", &"a\"b"), ("data-n", &3)])
            .element("text", &[], "<Ann & 'Bo'>")
            .empty("circle", &[("r", &whole(7.4))])
            .close("g");
        assert_eq!(
            s.finish().to_string(),
            r#"<g class="a&quot;b" data-n="3"><text>&lt;Ann &amp; &#39;Bo&#39;&gt;</text><circle r="7"/></g>"#
        );
    }
}
