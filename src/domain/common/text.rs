//! Free text typed by staff — a player's or bettor's name, a table name, a
//! reason, a token label — as one checked type used by pages, API and CLI.
//! A `FreeText` is trimmed, in Unicode NFC, within its length limit, and
//! holds no control, zero-width or bidirectional-formatting character: two
//! names that look the same on a screen are the same string, and nothing
//! invisible can hide in the audit log or an export.

use super::field_error::{AsFieldError, FieldError};
use std::fmt;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

/// Longest name (player, bettor, table as typed, label), in characters.
pub const NAME_CHARS_MAX: usize = 64;
/// Longest reason (a correction, a void, a removal), in characters.
pub const REASON_CHARS_MAX: usize = 500;

/// Checked free text: build it with [`FreeText::line`] or
/// [`FreeText::paragraph`]; the field is private so nothing unchecked is one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct FreeText(String);

/// Free text refused: the field, the value as typed (with invisible
/// characters shown as `\u{…}`) and why, in plain words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: \"{shown}\" {message}", shown = escaped(value))]
pub struct TextError {
    pub field: String,
    pub value: String,
    pub message: String,
}

impl AsFieldError for TextError {
    fn field_error(&self) -> Option<FieldError> {
        Some(FieldError::worded(self.field.as_str(), self).with_value(self.value.as_str()))
    }
}

impl FreeText {
    /// One line of text (a name, a label): no line breaks.
    pub fn line(field: &str, value: &str, max_chars: usize) -> Result<FreeText, TextError> {
        FreeText::parse(field, value, max_chars, false)
    }

    /// Text that may span lines (a reason typed in a text area): line
    /// breaks are kept as `\n`; every other rule of [`FreeText::line`] holds.
    pub fn paragraph(field: &str, value: &str, max_chars: usize) -> Result<FreeText, TextError> {
        FreeText::parse(field, value, max_chars, true)
    }

    /// True when `value` is already exactly what [`FreeText::line`] makes
    /// of it — checked without allocating (the replay of a recorded name).
    pub fn is_line(value: &str, max_chars: usize) -> bool {
        use unicode_normalization::{IsNormalized, is_nfc_quick};
        !value.is_empty()
            && value.trim() == value
            && !value.chars().any(refused_char)
            && value.chars().count() <= max_chars
            && is_nfc_quick(value.chars()) == IsNormalized::Yes
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }

    fn parse(
        field: &str,
        value: &str,
        max_chars: usize,
        multi_line: bool,
    ) -> Result<FreeText, TextError> {
        let refuse = |message: String| TextError {
            field: field.to_string(),
            value: value.to_string(),
            message,
        };
        let text: String = if multi_line {
            value.replace("\r\n", "\n").nfc().collect()
        } else {
            value.nfc().collect()
        };
        if let Some(c) = text
            .chars()
            .find(|&c| !(multi_line && c == '\n') && refused_char(c))
        {
            return Err(refuse(format!(
                "contains U+{:04X} ({}); type it without that character",
                c as u32,
                char_kind(c)
            )));
        }
        let text = text.trim();
        let chars = text.chars().count();
        if chars == 0 {
            return Err(refuse("is empty: type at least one character".into()));
        }
        if chars > max_chars {
            return Err(refuse(format!(
                "is {chars} characters; at most {max_chars} are allowed"
            )));
        }
        Ok(FreeText(text.to_string()))
    }
}

impl fmt::Display for FreeText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for FreeText {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// Reads a name as a JSON string with every rule of [`FreeText::line`] at
/// [`NAME_CHARS_MAX`]; the field path is added by the caller's parser.
impl<'de> Deserialize<'de> for FreeText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<FreeText, D::Error> {
        let text = String::deserialize(d)?;
        FreeText::line("text", &text, NAME_CHARS_MAX).map_err(|e| {
            serde::de::Error::custom(format!("\"{}\" {}", escaped(&e.value), e.message))
        })
    }
}

/// Characters no staff-typed text may hold besides the controls (C0, DEL,
/// C1): zero-width and joiner characters, bidirectional marks, embeddings,
/// overrides and isolates, invisible fillers and tag characters.
const INVISIBLE: [(char, char); 16] = [
    ('\u{00AD}', '\u{00AD}'),   // soft hyphen
    ('\u{034F}', '\u{034F}'),   // combining grapheme joiner
    ('\u{061C}', '\u{061C}'),   // Arabic letter mark
    ('\u{115F}', '\u{1160}'),   // Hangul fillers
    ('\u{17B4}', '\u{17B5}'),   // Khmer inherent vowels
    ('\u{180B}', '\u{180F}'),   // Mongolian selectors and separator
    ('\u{200B}', '\u{200F}'),   // zero-width space/joiners, LRM, RLM
    ('\u{2028}', '\u{2029}'),   // line and paragraph separators
    ('\u{202A}', '\u{202E}'),   // bidi embeddings and overrides
    ('\u{2060}', '\u{206F}'),   // word joiner, invisible operators, isolates
    ('\u{3164}', '\u{3164}'),   // Hangul filler
    ('\u{FFA0}', '\u{FFA0}'),   // halfwidth Hangul filler
    ('\u{FE00}', '\u{FE0F}'),   // variation selectors
    ('\u{FEFF}', '\u{FEFF}'),   // zero-width no-break space
    ('\u{FFF9}', '\u{FFFB}'),   // interlinear annotation
    ('\u{E0000}', '\u{E007F}'), // tags
];

/// Characters no staff-typed text may hold: the controls and [`INVISIBLE`].
pub fn refused_char(c: char) -> bool {
    c.is_control() || INVISIBLE.iter().any(|&(a, b)| (a..=b).contains(&c))
}

/// Free text as a JSON Schema (ECMA-262) pattern, from the same table as
/// [`refused_char`]: no refused character (a paragraph may hold line
/// breaks, `\n` or `\r\n`) and at least one that is not a space. The
/// length is the schema's `maxLength`.
pub fn pattern(paragraph: bool) -> String {
    let mut class = String::from(if paragraph {
        "\\u0000-\\u0009\\u000B-\\u001F\\u007F-\\u009F"
    } else {
        "\\u0000-\\u001F\\u007F-\\u009F"
    });
    for (a, b) in INVISIBLE {
        class.push_str(&pattern_char(a));
        if a != b {
            class.push('-');
            class.push_str(&pattern_char(b));
        }
    }
    let any = if paragraph {
        format!("(?:[^{class}]|\\r?\\n)")
    } else {
        format!("[^{class}]")
    };
    format!("^{any}*[^\\s{class}]{any}*$")
}

/// `\uXXXX` in the Basic Multilingual Plane, the character itself beyond.
fn pattern_char(c: char) -> String {
    if c <= '\u{FFFF}' {
        format!("\\u{:04X}", c as u32)
    } else {
        c.to_string()
    }
}

fn char_kind(c: char) -> &'static str {
    match c {
        '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{061C}' => "a bidirectional formatting character",
        c if c.is_control() => "a control character",
        '\u{2028}' | '\u{2029}' | '\n' => "a line break",
        _ => "an invisible character",
    }
}

/// The value with every refused character written as `\u{…}`, so a
/// message never carries the invisible character it is about.
pub fn escaped(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if refused_char(c) {
            out.push_str(&format!("\\u{{{:04X}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// A count with its thousands grouped: 10250 → `10,250`.
pub fn thousands(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_normalised() {
        let t = FreeText::line("player", "  Dana  ", NAME_CHARS_MAX).unwrap();
        assert_eq!(t.as_str(), "Dana");
        // "é" typed as e + combining acute is the same name as the precomposed one.
        let decomposed = FreeText::line("player", "Jose\u{301}", NAME_CHARS_MAX).unwrap();
        let composed = FreeText::line("player", "Jos\u{e9}", NAME_CHARS_MAX).unwrap();
        assert_eq!(decomposed, composed);
        assert_eq!(composed.as_str(), "José");
    }

    #[test]
    fn invisible_and_control_characters_are_refused_with_the_field() {
        for (typed, kind) in [
            ("T2\u{200B}", "invisible"),
            ("Ann\u{202E}rts", "bidirectional"),
            ("Bo\u{2066}b", "bidirectional"),
            ("Bo\u{0007}", "control"),
            ("Bo\nb", "control"),
            ("Bo\u{FEFF}", "invisible"),
            ("Bo\u{E0041}", "invisible"),
        ] {
            let e = FreeText::line("table", typed, NAME_CHARS_MAX).unwrap_err();
            assert_eq!(e.field, "table");
            assert_eq!(e.value, typed);
            assert!(e.message.contains(kind), "{typed:?}: {e}");
            let shown = e.to_string();
            assert!(shown.starts_with("table: \""), "{shown}");
            assert!(shown.chars().all(|c| !refused_char(c)), "{shown:?}");
        }
    }

    #[test]
    fn is_line_agrees_with_line() {
        for text in [
            "Ann",
            " Ann",
            "Ann ",
            "",
            "Jos\u{e9}",
            "Jose\u{301}",
            "A\u{200b}",
            "x\ny",
        ] {
            let same = FreeText::line("f", text, 8).is_ok_and(|t| t.as_str() == text);
            assert_eq!(FreeText::is_line(text, 8), same, "{text:?}");
        }
        assert!(!FreeText::is_line("123456789", 8));
    }

    #[test]
    fn empty_and_long_text_is_refused() {
        assert!(FreeText::line("bettor", "   ", NAME_CHARS_MAX).is_err());
        let long = "x".repeat(NAME_CHARS_MAX + 1);
        let e = FreeText::line("bettor", &long, NAME_CHARS_MAX).unwrap_err();
        assert!(e.message.contains("at most 64"), "{e}");
        assert!(FreeText::line("bettor", &long[1..], NAME_CHARS_MAX).is_ok());
    }

    #[test]
    fn a_paragraph_keeps_line_breaks_only() {
        let t = FreeText::paragraph("reason", "wrong seat\r\nsee camera 4\n", 500).unwrap();
        assert_eq!(t.as_str(), "wrong seat\nsee camera 4");
        assert!(FreeText::paragraph("reason", "a\tb", 500).is_err());
        assert!(FreeText::paragraph("reason", "a\u{202E}b", 500).is_err());
    }

    #[test]
    fn json_names_are_checked_when_read() {
        let t: FreeText = serde_json::from_str("\"  Ann \"").unwrap();
        assert_eq!(t.as_str(), "Ann");
        let e = serde_json::from_str::<FreeText>("\"Ann\\u200b\"").unwrap_err();
        assert!(e.to_string().contains("U+200B"), "{e}");
        assert_eq!(serde_json::to_string(&t).unwrap(), "\"Ann\"");
    }
}
