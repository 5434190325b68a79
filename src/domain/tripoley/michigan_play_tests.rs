//! The Michigan play card by card, from the rules file's own description:
//! the lowest card leads, the next card up follows, stop cards (the ace, a
//! card in the dead hand, a card already played), the stop card's player
//! leading another suit, the lead passing left, the blocked state
//! (`classic`), the first player out; and over random deals, the result is
//! always a `michigan` contract the round engine accepts.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::michigan_play::{MichiganPlay, Turn, leader};
use super::test_deals::Choices;
use super::*;
use crate::cards::{Card, parse_card, parse_cards};

fn hands(list: &[(&str, &str)]) -> Vec<(String, Vec<Card>)> {
    list.iter()
        .map(|(n, c)| (n.to_string(), parse_cards(c).expect("cards")))
        .collect()
}

/// A classic Michigan dealt `list`, the dead hand `dead`, Ann leading.
fn classic_from_ann(list: &[(&str, &str)], dead: &str) -> MichiganPlay {
    MichiganPlay::start(
        Profile::Classic,
        &hands(list),
        &parse_cards(dead).unwrap(),
        "Ann",
    )
    .unwrap()
}

/// `m` has said `line` at some point.
fn assert_said(m: &MichiganPlay, line: &str) {
    assert!(
        m.said().iter().any(|s| s == line),
        "{line:?} not in {:?}",
        m.said()
    );
}

fn card(text: &str) -> Card {
    parse_card(text).expect("card")
}

fn play(m: &MichiganPlay, p: &str, c: &str) -> MichiganPlay {
    m.play(p, card(c))
        .unwrap_or_else(|e| panic!("{p} {c}: {e}"))
}

/// Plays `moves` ("Ann 2s" …) in order.
fn play_all(m: MichiganPlay, moves: &[&str]) -> MichiganPlay {
    moves.iter().fold(m, |m, mv| {
        let (p, c) = mv.split_once(' ').expect("move");
        play(&m, p, c)
    })
}

fn lead(player: &str, cards: &str) -> Turn {
    Turn::Lead {
        player: player.into(),
        cards: parse_cards(cards).expect("cards"),
    }
}

#[test]
fn the_next_card_up_follows_until_a_stop_card_and_the_first_out_wins() {
    let m = classic_from_ann(
        &[("Ann", "2s 3s 9h"), ("Bo", "4s 5s Ah"), ("Cy", "6s 8s Kh")],
        "7s",
    );
    // The leader plays the lowest card of a suit of their choice.
    assert_eq!(m.turn(), lead("Ann", "2s 9h"));
    let m = play_all(m, &["Ann 2s", "Ann 3s", "Bo 4s", "Bo 5s"]);
    assert_eq!(
        m.turn(),
        Turn::Follow {
            player: "Cy".into(),
            card: card("6s")
        }
    );
    // 7s is in the dead hand: 6s is a stop card; Cy leads another suit.
    let m = play(&m, "Cy", "6s");
    assert_eq!(m.turn(), lead("Cy", "Kh"));
    // The ace is always a stop card; Bo has played every card.
    let m = play_all(m, &["Cy Kh", "Bo Ah"]);
    assert_eq!(
        m.turn(),
        Turn::Out {
            player: "Bo".into()
        }
    );
    let (out, left) = m.result().unwrap();
    assert_eq!(out.as_deref(), Some("Bo"));
    assert_eq!(left, [("Ann".to_string(), 1), ("Cy".to_string(), 1)]);
    assert_said(&m, "The 6s is a stop card (the 7s is in the dead hand).");
    assert_eq!(
        m.said().last().map(String::as_str),
        Some("Bo has played every card and goes out.")
    );
}

#[test]
fn a_stop_card_player_with_only_that_suit_passes_the_lead_left() {
    let m = classic_from_ann(
        &[("Ann", "2h 3h 8h"), ("Bo", "4h 7h"), ("Cy", "9c Jc")],
        "5h 9h Tc",
    );
    let m = play_all(m, &["Ann 2h", "Ann 3h", "Bo 4h"]);
    // Bo stopped on the 4h and holds only hearts: Cy leads clubs.
    assert_eq!(m.turn(), lead("Cy", "9c"));
    assert_said(&m, "Bo holds no other suit: the lead passes left to Cy.");
    // The 9c stops (Tc dead); Cy holds only clubs: Ann leads her heart.
    let m = play(&m, "Cy", "9c");
    assert_eq!(m.turn(), lead("Ann", "8h"));
    let m = play(&m, "Ann", "8h");
    assert_eq!(m.result().unwrap().0.as_deref(), Some("Ann"));
}

#[test]
fn nobody_able_to_lead_blocks_classic_play_but_not_cadaco() {
    let deal = hands(&[("Ann", "2h 3h Qh"), ("Bo", "4h 9h")]);
    let spare = parse_cards("5h Kh").unwrap();
    let moves = ["Ann 2h", "Ann 3h", "Bo 4h"];
    let classic = play_all(
        MichiganPlay::start(Profile::Classic, &deal, &spare, "Ann").unwrap(),
        &moves,
    );
    assert_eq!(classic.turn(), Turn::Blocked);
    let (out, left) = classic.result().unwrap();
    assert_eq!(out, None);
    assert_eq!(left, [("Ann".to_string(), 1), ("Bo".to_string(), 1)]);
    // Cadaco never blocks: the lead passes to Bo's left, in the same suit.
    let cadaco = play_all(
        MichiganPlay::start(Profile::Cadaco, &deal, &spare, "Ann").unwrap(),
        &moves,
    );
    assert_eq!(cadaco.turn(), lead("Ann", "Qh"));
    let cadaco = play(&cadaco, "Ann", "Qh");
    assert_eq!(cadaco.result().unwrap().0.as_deref(), Some("Ann"));
}

#[test]
fn a_card_already_played_stops_the_run() {
    let m = classic_from_ann(&[("Ann", "5d 6d Kc Ts"), ("Bo", "7d 3d 4d Ac 9s")], "8d");
    assert_eq!(m.turn(), lead("Ann", "5d Ts Kc"));
    // 5d 6d 7d (8d dead); Bo leads the Ac (a stop), then the 3d: 3d 4d,
    // and the 5d is gone.
    let m = play_all(m, &["Ann 5d"]);
    assert!(m.play("Ann", card("5d")).is_err());
    let m = play_all(m, &["Ann 6d", "Bo 7d", "Bo Ac", "Bo 3d", "Bo 4d"]);
    assert_said(&m, "The 4d is a stop card (the 5d has been played).");
    assert_said(&m, "The Ac is a stop card (an ace).");
    assert_eq!(m.turn(), lead("Bo", "9s"));
    let m = play(&m, "Bo", "9s");
    assert_eq!(m.result().unwrap().0.as_deref(), Some("Bo"));
}

#[test]
fn out_of_turn_wrong_cards_and_play_after_the_end_are_refused() {
    let m = classic_from_ann(&[("Ann", "2s 3s 9h"), ("Bo", "4s 5s Ah")], "7s");
    let err = |m: &MichiganPlay, p: &str, c: &str| m.play(p, card(c)).unwrap_err().to_string();
    assert_eq!(
        err(&m, "Bo", "4s"),
        "player: \"Bo\" plays out of turn: \"Ann\" leads"
    );
    assert!(err(&m, "Ann", "3s").starts_with("card: 3s is not a lead"));
    assert!(err(&m, "Zed", "3s").contains("\"Zed\" is not in the round"));
    let m = play(&m, "Ann", "2s");
    assert_eq!(
        err(&m, "Ann", "9h"),
        "card: 9h is not the next card: \"Ann\" plays the 3s"
    );
    assert!(m.result().is_err());
    let m = play_all(m, &["Ann 3s", "Bo 4s", "Bo 5s", "Bo Ah"]);
    assert!(m.is_over());
    assert!(err(&m, "Ann", "9h").contains("the Michigan play is over"));
}

#[test]
fn the_leader_is_the_dealer_or_the_poker_winner_nearest_the_dealers_left() {
    let seating: Vec<String> = ["Dee", "Ann", "Bo", "Cy"].map(String::from).to_vec();
    let all = seating.clone();
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        leader(Profile::Cadaco, &seating, "Dee", &all, &names(&["Bo"])).as_deref(),
        Some("Dee")
    );
    assert_eq!(
        leader(Profile::Cadaco, &seating, "Dee", &names(&["Bo", "Cy"]), &[]).as_deref(),
        Some("Bo")
    );
    assert_eq!(
        leader(Profile::Classic, &seating, "Dee", &all, &names(&["Bo"])).as_deref(),
        Some("Bo")
    );
    // Tied winners: the one nearest the dealer's left (the dealer last).
    assert_eq!(
        leader(
            Profile::Classic,
            &seating,
            "Bo",
            &all,
            &names(&["Ann", "Dee"])
        )
        .as_deref(),
        Some("Dee")
    );
    assert_eq!(
        leader(
            Profile::Classic,
            &seating,
            "Dee",
            &all,
            &names(&["Dee", "Cy"])
        )
        .as_deref(),
        Some("Cy")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random deals played card by card (random leads): every card played
    /// once, the play always ends, and the round engine accepts its result.
    #[test]
    fn every_guided_play_ends_in_a_result_the_engine_accepts(
        n in 2usize..=9,
        deck in Just((0u8..52).collect::<Vec<u8>>()).prop_shuffle(),
        classic in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
        let mut dealt: Vec<Vec<Card>> = vec![Vec::new(); n + 1];
        for (k, c) in deck.iter().filter_map(|&i| Card::from_index(i)).enumerate() {
            dealt[k % (n + 1)].push(c);
        }
        let text = |c: &[Card]| c.iter().map(Card::to_string).collect::<Vec<_>>().join(" ");
        let mut hands_json: Map<String, Value> =
            names.iter().cloned().zip(dealt.iter().map(|h| json!(text(h)))).collect();
        hands_json.insert("spare".into(), json!(text(&dealt[n])));
        let profile = if classic { Profile::Classic } else { Profile::Cadaco };
        let guided: Vec<(String, Vec<Card>)> = names.iter().cloned().zip(dealt.clone()).collect();
        let mut pick = Choices(seed);
        let mut m = MichiganPlay::start(profile, &guided, &dealt[n], &names[0]).unwrap();
        let mut played = 0;
        while !m.is_over() {
            let (p, c) = match m.turn() {
                Turn::Lead { player, cards } => {
                    prop_assert!(!cards.is_empty());
                    let c = cards[pick.next(cards.len() as u64) as usize];
                    (player, c)
                }
                Turn::Follow { player, card } => (player, card),
                _ => unreachable!(),
            };
            m = m.play(&p, c).map_err(|e| TestCaseError::fail(e.to_string()))?;
            played += 1;
            prop_assert!(played <= 52);
        }
        prop_assert!(classic || m.turn() != Turn::Blocked);
        let (out, left) = m.result().unwrap();
        let held: usize = dealt[..n].iter().map(Vec::len).sum();
        prop_assert_eq!(held, played + left.iter().map(|l| l.1 as usize).sum::<usize>());
        let mut michigan = json!({
            "cards_left": left.iter().map(|(p, c)| (p.clone(), json!(c))).collect::<Map<_, _>>()
        });
        match out {
            Some(o) => michigan["out"] = json!(o),
            None => michigan["blocked"] = json!(true),
        }
        let chips: Map<String, Value> = names.iter().map(|p| (p.clone(), json!(30))).collect();
        let input = json!({
            "profile": if classic { "classic" } else { "cadaco" },
            "players": names, "dealer": "P0", "chips": chips,
            "hands": hands_json, "poker": {}, "michigan": michigan,
        });
        let parsed: RoundInput = parse(input.to_string().as_bytes()).unwrap();
        prop_assert!(play_round(&parsed).is_ok(), "{}", input);
    }
}
