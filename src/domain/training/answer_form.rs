//! An answer typed into a page's form: the fields a drill asks for, named
//! by their path in the answer (`seat`, `net.Ann`, `high`), each with the
//! kind of input it takes; and the form as posted read back into the
//! answer's JSON, so a form's answer is graded by the same [`super::grade`]
//! as the API's (a wrong shape is the same field error, beside its field).

use serde::Serialize;
use serde_json::{Map, Value};

use super::{Answer, Question};

/// What a form field takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = AnswerInputKind)]
#[serde(tag = "input", rename_all = "lowercase")]
pub enum Input {
    /// Money as a decimal ("12.50").
    Money,
    /// A whole number (a seat, points, chips).
    Number,
    /// Text: cards ("As Ks Qs Js Ts").
    Text,
    /// A list of ids, in order, separated by commas or spaces.
    List,
    /// One of these values.
    Choice { options: Vec<String> },
}

/// One field of an answer's form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = AnswerField)]
pub struct FormField {
    /// The field's path in the answer: its form name.
    pub path: String,
    /// What the trainee reads beside it.
    pub label: String,
    #[serde(flatten)]
    pub input: Input,
}

fn label(path: &str) -> String {
    match path {
        "seat" => "ACTION seat".into(),
        "order" => "Wager ids in settling order".into(),
        "covered" => "Covered".into(),
        "no_action" => "No action".into(),
        "to_bettor" => "Paid to the bettor".into(),
        "to_pd" => "Collected for the PD".into(),
        "in_action_after" => "PD's money in action after".into(),
        "pd_returned" => "Returned to the PD".into(),
        "outcome" => "Who wins".into(),
        "high" => "High hand (5 cards)".into(),
        "low" => "Low hand (2 cards)".into(),
        "fee" => "Fee".into(),
        "points" => "Points".into(),
        "winner" => "Winner".into(),
        other => match other.split_once('.') {
            Some(("net", "pd")) => "PD's net".into(),
            Some(("net", name)) => format!("{name}'s net"),
            _ => other.to_string(),
        },
    }
}

/// The fields a drill's answer is typed into, in the answer's order: read
/// from the correct answer's shape (never its values), with the choices of
/// `outcome` and `winner` from the question.
pub fn fields(question: &Question, answer: &Answer) -> Vec<FormField> {
    let value = serde_json::to_value(answer).unwrap_or(Value::Null);
    let text = serde_json::to_string(answer).unwrap_or_default();
    let mut out = Vec::new();
    if let Value::Object(map) = &value {
        for (key, v) in map {
            match v {
                Value::Object(inner) => {
                    for (name, leaf) in inner {
                        out.push(leaf_field(&format!("{key}.{name}"), leaf, question));
                    }
                }
                leaf => out.push(leaf_field(key, leaf, question)),
            }
        }
    }
    // A JSON object's keys may come back sorted: put the fields back in
    // the order the answer writes them (its declaration order).
    out.sort_by_key(|f| written_at(&text, &f.path));
    out
}

/// Where `path`'s key is written in the answer's JSON text.
fn written_at(text: &str, path: &str) -> (usize, usize) {
    let at = |from: usize, key: &str| {
        let quoted = format!("{}:", Value::String(key.to_string()));
        text[from..].find(&quoted).map_or(usize::MAX, |i| from + i)
    };
    match path.split_once('.') {
        Some((outer, inner)) => {
            let o = at(0, outer);
            (o, if o == usize::MAX { o } else { at(o, inner) })
        }
        None => (at(0, path), 0),
    }
}

fn leaf_field(path: &str, leaf: &Value, question: &Question) -> FormField {
    let input = match (path, leaf) {
        ("outcome", _) => Input::Choice {
            options: ["player", "pd", "push"].map(String::from).to_vec(),
        },
        ("winner", _) => {
            let hands = match question {
                Question::PokerDice(q) => q.hands.len(),
                _ => 0,
            };
            let mut options: Vec<String> = (1..=hands).map(|n| n.to_string()).collect();
            options.push("tie".into());
            Input::Choice { options }
        }
        ("high" | "low", _) => Input::Text,
        (_, Value::Array(_)) => Input::List,
        (_, Value::Number(_)) => Input::Number,
        _ => Input::Money,
    };
    FormField {
        path: path.to_string(),
        label: label(path),
        input,
    }
}

/// The posted form (name, value pairs) as the answer's JSON: each field
/// of `fields` at its path, a number as a number when it reads as one (else
/// as typed, for the grader to refuse by name), a list split on commas and
/// spaces, a choice of digits as a number. A field left out is left out.
pub fn read(fields: &[FormField], pairs: &[(String, String)]) -> Value {
    let mut answer = Map::new();
    for field in fields {
        let Some((_, typed)) = pairs.iter().find(|(name, _)| *name == field.path) else {
            continue;
        };
        let typed = typed.trim();
        let value = match &field.input {
            Input::Number => typed
                .parse::<i64>()
                .map_or_else(|_| Value::String(typed.into()), Value::from),
            Input::Choice { .. } => typed
                .parse::<i64>()
                .map_or_else(|_| Value::String(typed.into()), Value::from),
            Input::List => Value::Array(
                typed
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|s| !s.is_empty())
                    .map(|s| Value::String(s.into()))
                    .collect(),
            ),
            Input::Money | Input::Text => Value::String(typed.into()),
        };
        match field.path.split_once('.') {
            Some((outer, inner)) => {
                let slot = answer
                    .entry(outer.to_string())
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(map) = slot {
                    map.insert(inner.to_string(), value);
                }
            }
            None => {
                answer.insert(field.path.clone(), value);
            }
        }
    }
    Value::Object(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::{AnswerInput, Drill, Kind, Level, grade};

    /// The correct answer typed into the form as a trainee would (the
    /// fields' values as text) is graded right, for every kind and level.
    #[test]
    fn the_right_answer_typed_into_the_form_grades_right() {
        for kind in Kind::ALL {
            for level in Level::ALL {
                for seed in 0..40 {
                    let drill = Drill::generate(kind, level, seed);
                    let fields = fields(&drill.question, &drill.answer);
                    assert!(!fields.is_empty(), "{kind}");
                    if kind == Kind::SettleStep {
                        let paths: Vec<&str> = fields.iter().map(|f| f.path.as_str()).collect();
                        assert_eq!(
                            paths,
                            [
                                "covered",
                                "no_action",
                                "to_bettor",
                                "to_pd",
                                "in_action_after"
                            ]
                        );
                    }
                    let value = serde_json::to_value(&drill.answer).unwrap();
                    let pairs: Vec<(String, String)> = fields
                        .iter()
                        .map(|f| {
                            let leaf = match f.path.split_once('.') {
                                Some((o, i)) => &value[o][i],
                                None => &value[&f.path],
                            };
                            let text = match leaf {
                                Value::String(s) => s.clone(),
                                Value::Array(items) => items
                                    .iter()
                                    .map(|v| v.as_str().unwrap_or_default().to_string())
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                other => other.to_string(),
                            };
                            (f.path.clone(), text)
                        })
                        .collect();
                    let answer = AnswerInput::from_value(read(&fields, &pairs));
                    let graded = grade(&drill, &answer).unwrap_or_else(|e| {
                        panic!("{kind} level {level} seed {seed}: {e} from {pairs:?}")
                    });
                    assert!(graded.right, "{kind} level {level} seed {seed}: {pairs:?}");
                }
            }
        }
    }

    #[test]
    fn a_malformed_field_comes_back_named_by_the_grader() {
        let drill = Drill::generate(Kind::ActionSeat, Level::EASY, 3);
        let fields = fields(&drill.question, &drill.answer);
        assert_eq!(fields[0].path, "seat");
        let pairs = vec![("seat".to_string(), "four".to_string())];
        let e = grade(&drill, &AnswerInput::from_value(read(&fields, &pairs))).unwrap_err();
        assert_eq!((e.field(), e.value()), ("seat", Some("four")));
    }
}
