//! No form control is named after a property of the form itself. A control
//! named `action` makes `form.action` that control, not the form's target,
//! so a script reading it posts to "[object HTMLInputElement]"; `name`, `id`,
//! `method`, `target`, `role`… shadow alike. Every template is read: each
//! control's literal `name="…"` and each `field` / `input_field` macro
//! call's name (its id unless `name = "…"` is given) is checked against
//! every property chromium gives a `<form>` (form_properties.txt).

use std::fs;
use std::path::Path;

/// The names a control must not have.
fn form_properties() -> Vec<String> {
    let text = include_str!("form_properties.txt");
    let names: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::to_string)
        .collect();
    assert!(
        names.len() > 300,
        "form_properties.txt lists {}",
        names.len()
    );
    names
}

/// The literal text of a string starting at `text` (just after its opening
/// quote), or None when it holds a template expression.
fn literal(text: &str) -> Option<&str> {
    let value = &text[..text.find('"')?];
    (!value.contains('{')).then_some(value)
}

/// Each literal `name="…"` on a control tag (not `<meta name=…>`).
fn tag_names(template: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in template.match_indices(" name=\"") {
        let tag_start = template[..at].rfind('<').unwrap_or(0);
        let tag: String = template[tag_start + 1..]
            .chars()
            .take_while(char::is_ascii_alphabetic)
            .collect();
        let controls = [
            "input", "select", "textarea", "button", "fieldset", "output",
        ];
        if controls.contains(&tag.as_str())
            && let Some(name) = literal(&template[at + 7..])
        {
            found.push(name.to_string());
        }
    }
    found
}

/// The name of each `m::field("id", …)` and `m::input_field("id", …)` call:
/// `name = "…"` when given, else the id.
fn macro_names(template: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in template.match_indices("field(\"") {
        let args = &template[at + 7..];
        let call = &args[..args.find("%}").unwrap_or(args.len())];
        let name = match call.find("name = ") {
            Some(n) if call[n + 7..].starts_with('"') => literal(&call[n + 8..]),
            Some(_) => None,
            None => literal(call),
        };
        found.extend(name.map(str::to_string));
    }
    found
}

fn templates(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in fs::read_dir(dir).expect("templates/") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            templates(&path, out);
        } else if path.extension().is_some_and(|e| e == "html") {
            let text = fs::read_to_string(&path).expect("template");
            out.push((path.display().to_string(), text));
        }
    }
}

#[test]
fn no_control_is_named_after_a_form_property() {
    let forbidden = form_properties();
    let mut all = Vec::new();
    templates(Path::new("templates"), &mut all);
    assert!(all.len() > 40, "{} templates found", all.len());
    let mut seen = 0;
    let mut shadowing = Vec::new();
    for (path, text) in &all {
        for name in tag_names(text).into_iter().chain(macro_names(text)) {
            seen += 1;
            if forbidden.contains(&name) {
                shadowing.push(format!("{path}: a control named \"{name}\""));
            }
        }
    }
    assert!(
        seen > 100,
        "only {seen} control names read: the scan is broken"
    );
    assert!(
        shadowing.is_empty(),
        "controls that shadow a property of their form:\n{}",
        shadowing.join("\n")
    );
}

#[test]
fn the_scan_finds_what_would_shadow() {
    let page = r#"<form><input type="hidden" name="action" value="step">
<button name="op">x</button><meta name="viewport">
{% call m::input_field("name", "Name", v) %}{% endcall %}
{% call m::input_field("seats", "Seats", v, name = "id") %}{% endcall %}
{% call m::field("target", "Target", v, "numeric", e) %}{% endcall %}
{% call m::input_field(format!("x_{}", s), "X", v, name = name) %}{% endcall %}"#;
    assert_eq!(tag_names(page), ["action", "op"]);
    assert_eq!(macro_names(page), ["name", "id", "target"]);
    let forbidden = form_properties();
    for name in ["action", "name", "id", "target", "method", "role", "when"] {
        assert!(forbidden.iter().any(|f| f == name), "{name}");
    }
    assert!(!forbidden.iter().any(|f| f == "op" || f == "intent"));
}
