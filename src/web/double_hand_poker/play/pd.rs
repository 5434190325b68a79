//! The guided hand's PD screen: the refusals the dealer records before the
//! PD is set (carried in the page as `SEAT:NAME, …` until `pd_set` records
//! them), the option chosen, and how both read on the pages.

use crate::domain::double_hand_poker::hand_record::{Declined, HandEvent, PdChoice, PdOption};
use crate::domain::double_hand_poker::table::{PdProposal, TableConfig, propose_pd};
use crate::store::double_hand_poker::hands;
use crate::web::AppState;

use super::ShowQuery;
use super::ask::Refusal;
use super::forms::{Fields, Refused};
use super::view::{Loaded, Step};

/// The refusals typed as `SEAT:NAME` separated by commas (`2:Ann, 3:Bo`);
/// empty text is none. The hand's rules (seat range, not the PD's seat, no
/// seat twice) are checked by the hand itself, naming `declined[i]`.
pub(super) fn parse_declined(text: &str) -> Result<Vec<Declined>, Refused> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|part| {
            let bad = || {
                (
                    "declined".to_string(),
                    format!("\"{part}\" is not SEAT:NAME (e.g. 2:Ann)"),
                )
            };
            let (seat, player) = part.split_once(':').ok_or_else(bad)?;
            let seat = seat.trim().parse::<i64>().map_err(|_| bad())?;
            let player = player.trim();
            if player.is_empty() {
                return Err(bad());
            }
            Ok(Declined {
                seat,
                player: player.to_string(),
            })
        })
        .collect()
}

/// The option chosen on the PD form: required on the page.
pub(super) fn option_field(fields: &Fields) -> Result<PdOption, Refused> {
    match fields.get("option") {
        "" => Err((
            "option".to_string(),
            "choose whether the PD banks two hands or one".to_string(),
        )),
        other => PdOption::parse(other).ok_or_else(|| {
            (
                "option".to_string(),
                format!("\"{other}\" is not bank_two or bank_one"),
            )
        }),
    }
}

/// The `pd_set` a PD form asks for.
pub(super) fn pd_event(fields: &Fields) -> Result<HandEvent, Refused> {
    let seat_text = fields.get("seat").trim();
    let seat = seat_text.parse().map_err(|_| {
        (
            "seat".to_string(),
            format!("\"{seat_text}\" is not a whole number"),
        )
    })?;
    let player = fields.get("player").trim();
    if player.is_empty() {
        return Err(("player".to_string(), "required".to_string()));
    }
    Ok(HandEvent::PdSet {
        seat,
        player: player.to_string(),
        bank: super::view::money_field("bank", fields.get("bank"))?,
        option: Some(option_field(fields)?),
        declined: parse_declined(fields.get("declined"))?,
    })
}

/// The refusals so far plus the proposed player's, for the "refuses" button.
pub(super) fn with_refusal(pending: &str, p: &PdProposal) -> String {
    let mut text = pending.trim().trim_end_matches(',').to_string();
    if !text.is_empty() {
        text.push_str(", ");
    }
    text.push_str(&format!("{}:{}", p.seat, p.player));
    text
}

/// The option and refusals of a set PD, as a sentence.
pub(super) fn choice_text(choice: &PdChoice) -> String {
    let option = choice
        .option
        .map_or("option not recorded", PdOption::describe);
    if choice.declined.is_empty() {
        format!("Option: {option}.")
    } else {
        let who: Vec<String> = choice
            .declined
            .iter()
            .map(|d| format!("{} (seat {})", d.player, d.seat))
            .collect();
        format!("Option: {option}. Refused first: {}.", who.join(", "))
    }
}

/// A recorded `pd_set` in words, for the hand's record page.
pub(super) fn pd_set_note(payload: &str) -> Option<String> {
    let (pd, choice) = HandEvent::from_json(payload).ok()?.pd_set()?;
    Some(format!(
        "{} (seat {}) banks {}. {}",
        pd.player,
        pd.seat,
        pd.bank.to_display(),
        choice_text(&choice)
    ))
}

/// The rotation proposal from the table's last closed hands.
async fn proposal(
    state: &AppState,
    loaded: &Loaded,
    table: Option<&TableConfig>,
    refused: &[i64],
) -> Option<PdProposal> {
    let history = hands::rotation_history(&state.db, &loaded.state.table, hands::ROTATION_HANDS)
        .await
        .ok()?;
    let min_wagers = table.map_or(3, |t| t.rules().pd_min_wagers);
    propose_pd(&history, refused, loaded.seats(), min_wagers)
}

/// The PD refusals typed into a refused form (else those the page
/// carries), the rotation's proposal past them at the PD step, and the
/// refusals the proposal's "refused" button sends next.
pub(super) async fn offer(
    state: &AppState,
    loaded: &Loaded,
    table: Option<&TableConfig>,
    query: &ShowQuery,
    refusal: &Refusal,
    step: Step,
) -> (String, Option<PdProposal>, String) {
    let declined = refusal
        .typed
        .iter()
        .find(|(k, _)| k == "declined")
        .map_or_else(
            || query.declined.clone().unwrap_or_default(),
            |(_, v)| v.clone(),
        );
    let proposed = if step == Step::Pd {
        let refused: Vec<i64> = parse_declined(&declined)
            .unwrap_or_default()
            .iter()
            .map(|d| d.seat)
            .collect();
        proposal(state, loaded, table, &refused).await
    } else {
        None
    };
    let declined_next = proposed
        .as_ref()
        .map(|p| with_refusal(&declined, p))
        .unwrap_or_default();
    (declined, proposed, declined_next)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusals back as the form's text.
    fn declined_text(declined: &[Declined]) -> String {
        declined
            .iter()
            .map(|d| format!("{}:{}", d.seat, d.player))
            .collect::<Vec<_>>()
            .join(", ")
    }

    #[test]
    fn refusals_read_from_text_and_back() {
        let list = parse_declined(" 2:Ann,3: Bo ,").unwrap();
        assert_eq!(declined_text(&list), "2:Ann, 3:Bo");
        assert_eq!(parse_declined("  ").unwrap(), Vec::new());
        for bad in ["Ann", "x:Ann", "2:", "2"] {
            let (field, message) = parse_declined(bad).unwrap_err();
            assert_eq!(field, "declined");
            assert!(message.contains(&format!("\"{bad}\"")), "{message}");
        }
    }

    #[test]
    fn a_pd_set_reads_in_words() {
        let old = r#"{"type":"pd_set","seat":1,"player":"Dana","bank":"200"}"#;
        assert_eq!(
            pd_set_note(old).as_deref(),
            Some("Dana (seat 1) banks 200.00. Option: option not recorded.")
        );
        let new = r#"{"type":"pd_set","seat":3,"player":"Bo","bank":"50","option":"bank_one","declined":[{"seat":2,"player":"Ann"}]}"#;
        assert_eq!(
            pd_set_note(new).as_deref(),
            Some(
                "Bo (seat 3) banks 50.00. Option: banks one hand, then passes the option. Refused first: Ann (seat 2)."
            )
        );
        assert_eq!(pd_set_note(r#"{"type":"hand_voided","reason":"x"}"#), None);
    }
}
