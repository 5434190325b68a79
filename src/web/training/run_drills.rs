//! The drills of a run as its page shows them: each answered drill with
//! what was given and what was right, and the answer form of the drill
//! waiting, each field with what was typed and a refusal beside it.

use serde_json::Value;

use super::drill_table::{DrillTable, FacesRow, drill_cards, drill_dice, drill_table};
use super::seconds;
use crate::domain::common::field_error::FieldError;
use crate::domain::double_hand_poker::hand_words::CardFace;
use crate::domain::training::answer_form::{self, FormField, Input};
use crate::domain::training::run::Run;
use crate::store::training;
use crate::web::{AppState, Typed};

/// One field of the answer form as the page shows it.
pub(super) struct FieldView {
    pub(super) path: String,
    pub(super) id: String,
    pub(super) label: String,
    pub(super) inputmode: &'static str,
    /// How many cards the card picker fills in (`data-cards`), for the
    /// hands of a house-way drill; empty for the others.
    pub(super) cards: &'static str,
    pub(super) options: Vec<String>,
    pub(super) value: String,
    pub(super) error: String,
}

/// A drill answered, as the page shows it.
#[derive(Clone)]
pub(super) struct Reviewed {
    pub(super) position: usize,
    pub(super) question: String,
    pub(super) given: String,
    pub(super) correct: String,
    pub(super) right: bool,
    pub(super) time: String,
    pub(super) explanation: String,
    /// A house-way drill's cards as the value page's query.
    pub(super) ev_query: Option<String>,
}

/// The value page's query for a house-way drill's cards.
fn ev_query(drill: &crate::domain::training::Drill) -> Option<String> {
    let cards = drill.seven_cards()?;
    serde_urlencoded::to_string([("cards", cards)]).ok()
}

/// The answer as given, in words: each field's label and value.
fn given_words(fields: &[FormField], given: Option<&str>) -> String {
    let Some(text) = given else {
        return "—".into();
    };
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return text.to_string();
    };
    let leaf = |path: &str| -> String {
        let v = match path.split_once('.') {
            Some((o, i)) => &value[o][i],
            None => &value[path],
        };
        match v {
            Value::String(s) => s.clone(),
            Value::Array(items) => items
                .iter()
                .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(", "),
            Value::Null => "—".into(),
            other => other.to_string(),
        }
    };
    fields
        .iter()
        .map(|f| format!("{}: {}", f.label, leaf(&f.path)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The run's answered drills, each with what was given and what was right.
pub(super) async fn reviewed(
    state: &AppState,
    run: &Run,
) -> Result<Vec<Reviewed>, crate::store::StoreError> {
    let answers = training::answers_of_run(&state.db, &run.id).await?;
    let mut review = Vec::new();
    for (i, d) in run.drills.iter().enumerate() {
        let Some(attempt) = &d.attempt else { continue };
        let drill = training::generate(run.kind, run.level, d.seed)?;
        let fields = answer_form::fields(&drill.question, &drill.answer);
        let given = answers
            .iter()
            .find(|(id, _)| *id == d.id)
            .and_then(|(_, a)| a.as_deref());
        review.push(Reviewed {
            position: i + 1,
            question: drill.question_words(),
            given: given_words(&fields, given),
            correct: drill.answer_words(),
            right: attempt.right,
            time: seconds(attempt.elapsed_ms),
            explanation: drill.explanation.clone(),
            ev_query: ev_query(&drill),
        });
    }
    Ok(review)
}

/// The drill waiting for an answer as the page shows it.
pub(super) struct Pending {
    pub(super) drill: String,
    /// The question in words (folded under a drawing when there is one).
    pub(super) question: String,
    pub(super) fields: Vec<FieldView>,
    /// A drill about a hand, drawn as the table.
    pub(super) table: Option<DrillTable>,
    /// A drill about cards: its cards, row by row.
    pub(super) cards: Vec<FacesRow<CardFace>>,
    /// A dice drill: its dice, row by row.
    pub(super) dice: Vec<FacesRow<String>>,
}

/// The drill waiting for an answer, if any: its id, its question (drawn
/// as the table when it is about a hand) and its form's fields, each with
/// what was typed and a refusal beside it.
pub(super) fn pending_form(
    run: &Run,
    typed: &[(String, String)],
    refusal: Option<&FieldError>,
) -> Result<Option<Pending>, crate::store::StoreError> {
    Ok(match run.pending() {
        Some(d) => {
            let drill = training::generate(run.kind, run.level, d.seed)?;
            let fields: Vec<FieldView> = answer_form::fields(&drill.question, &drill.answer)
                .into_iter()
                .map(|f| {
                    let error = refusal
                        .filter(|e| e.field() == f.path)
                        .map_or(String::new(), |e| e.message().to_string());
                    let (inputmode, options) = match &f.input {
                        Input::Money => ("decimal", Vec::new()),
                        Input::Number => ("numeric", Vec::new()),
                        Input::Choice { options } => ("", options.clone()),
                        Input::Text | Input::List => ("", Vec::new()),
                    };
                    let cards = match (&f.input, f.path.as_str()) {
                        (Input::Text, "high") => "5",
                        (Input::Text, "low") => "2",
                        _ => "",
                    };
                    FieldView {
                        cards,
                        id: format!(
                            "answer-{}",
                            f.path.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
                        ),
                        value: typed.value_or(&f.path, ""),
                        path: f.path,
                        label: f.label,
                        inputmode,
                        options,
                        error,
                    }
                })
                .collect();
            Some(Pending {
                drill: d.id.clone(),
                question: drill.question_words(),
                fields,
                table: drill_table(&drill),
                cards: drill_cards(&drill),
                dice: drill_dice(&drill),
            })
        }
        None => None,
    })
}
