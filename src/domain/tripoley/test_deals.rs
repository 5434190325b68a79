//! Test helpers: deals built from the cards a test cares about, the rest
//! dealt so hand sizes stay within one card, and round inputs as JSON.

use serde_json::{Value, json};

use super::*;
use crate::cards::{Card, parse_cards};

/// The hands object: `fixed` cards to the named hands (`"spare"` too), the
/// other cards of the deck, suit by suit, each to a hand with the fewest.
pub fn deal(players: &[&str], fixed: &[(&str, &str)]) -> Value {
    let mut names: Vec<&str> = players.to_vec();
    names.push("spare");
    let mut hands: Vec<Vec<Card>> = vec![Vec::new(); names.len()];
    let mut used = Vec::new();
    for (name, cards) in fixed {
        let i = names
            .iter()
            .position(|n| n == name)
            .expect("fixed hand name");
        let cards = parse_cards(cards).expect("fixed cards");
        used.extend(cards.iter().copied());
        hands[i].extend(cards);
    }
    let mut next = 0;
    let suit_major = (0..4u8).flat_map(|s| (0..13u8).map(move |r| r * 4 + s));
    for card in suit_major.filter_map(Card::from_index) {
        if used.contains(&card) {
            continue;
        }
        let fewest = hands.iter().map(Vec::len).min().unwrap_or(0);
        let i = (0..names.len())
            .map(|k| (next + k) % names.len())
            .find(|&i| hands[i].len() == fewest)
            .unwrap_or(0);
        hands[i].push(card);
        next = i + 1;
    }
    let mut object = serde_json::Map::new();
    for (name, cards) in names.iter().zip(&hands) {
        let text: Vec<String> = cards.iter().map(Card::to_string).collect();
        object.insert(name.to_string(), json!(text.join(" ")));
    }
    Value::Object(object)
}

/// Every money card and an 8 of each suit in the dead hand: no section pays
/// before the poker, so each player's stack is their chips less the ante.
pub const NO_PAYOUTS: (&str, &str) = ("spare", "Ah Kh Qh Jh Th 8s 8h 8d 8c");

pub const TABLE: [&str; 4] = ["Ann", "Bo", "Cy", "Dee"];

/// Four players with 50 chips each, Dee dealing, an empty board, the given
/// fixed cards, everyone checks (best five at the showdown), Ann goes out
/// and everyone else has one card left.
pub fn base(fixed: &[(&str, &str)]) -> Value {
    json!({
        "profile": "classic",
        "players": TABLE,
        "dealer": "Dee",
        "chips": {"Ann": 50, "Bo": 50, "Cy": 50, "Dee": 50},
        "hands": deal(&TABLE, fixed),
        "poker": {},
        "michigan": {"out": "Ann", "cards_left": {"Bo": 1, "Cy": 1, "Dee": 1}}
    })
}

pub fn run(input: &Value) -> Result<RoundOutput, TripoleyError> {
    play_round(&parse::<RoundInput>(input.to_string().as_bytes())?)
}

pub fn ok(input: &Value) -> RoundOutput {
    let out = run(input).unwrap_or_else(|e| panic!("{e}\n{input}"));
    let players: u64 = out.outcome.chips.0.iter().map(|(_, c)| c).sum();
    assert_eq!(
        players + out.outcome.board.total(),
        out.outcome.total,
        "conservation"
    );
    out
}

/// The error message of an input that must be refused as bad input.
pub fn bad(input: &Value) -> String {
    match run(input) {
        Ok(out) => panic!("accepted: {input}\n{:?}", out.outcome.steps),
        Err(e) => {
            assert!(e.is_bad_input(), "{e}");
            e.to_string()
        }
    }
}

pub fn steps(out: &RoundOutput, kind: StepKind) -> Vec<&Step> {
    out.outcome
        .steps
        .iter()
        .filter(|s| s.kind == kind)
        .collect()
}

pub fn section_step(out: &RoundOutput, section: Section) -> Vec<&Step> {
    out.outcome
        .steps
        .iter()
        .filter(|s| s.section == Some(section) && s.kind != StepKind::Bet)
        .collect()
}

pub fn chips_of(out: &RoundOutput, name: &str) -> u64 {
    *out.outcome.chips.get(name).expect("player")
}

/// Deals `deck` (card indexes) one card at a time to the seats in `order`,
/// the spare taking its card last in each turn: each seat's hand and the
/// spare hand.
pub fn deal_in_turn(deck: &[u8], order: &[usize], n: usize) -> (Vec<Vec<Card>>, Vec<Card>) {
    let mut hands: Vec<Vec<Card>> = vec![Vec::new(); n];
    let mut spare = Vec::new();
    for (k, card) in deck.iter().filter_map(|&i| Card::from_index(i)).enumerate() {
        match order.get(k % (order.len() + 1)) {
            Some(&s) => hands[s].push(card),
            None => spare.push(card),
        }
    }
    (hands, spare)
}

/// A small deterministic stream of choices from one seed.
pub struct Choices(pub u64);

impl Choices {
    pub fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        if below == 0 {
            0
        } else {
            (self.0 >> 33) % below
        }
    }
}
