//! Tripoley payouts: a whole round — antes, money cards, King-Queen, the
//! 8-9-10 split and its remainder, the Pot (split in whole chips, side
//! pots), the Michigan Kitty and the per-card payments — as each player's
//! net chips, computed by `tripoley::play_round`. The question holds the
//! round in the `pitbook tripoley round` contract (docs/tripoley.md), so
//! anyone can check it. Level 1: three players, an empty board; level 2:
//! four players, chips carried over on the board; level 3: five players,
//! carry-overs, a player who folds and a short stack all-in (side pots).
//! Each player still in shows five of their cards, drawn at random (a
//! player picks any five; the showdown of what is shown is the engine's).

use serde::Serialize;
use utoipa::openapi::schema::Type;

use super::decide::shuffled;
use crate::cards::{Card, format_cards};
use crate::common::field_error::FieldError;
use crate::training::answer_input::{AnswerInput, integer, keyed};
use crate::training::rng::Rng;
use crate::training::{Level, engine};
use crate::tripoley::{
    BoardInput, CardsText, MichiganInput, NameMap, Named, PokerInput, Profile, RoundInput, Section,
    begin_round,
};

const PLAYERS: [&str; 5] = ["Ann", "Bo", "Cy", "Dee", "Eli"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TripoleyQuestion)]
pub struct Question {
    /// The round, in the `pitbook tripoley round` contract.
    pub round: Round,
}

/// The fields of the round contract the drills use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TripoleyDrillRound)]
pub struct Round {
    pub profile: Profile,
    pub players: Vec<String>,
    pub dealer: String,
    #[schema(schema_with = chips_schema)]
    pub chips: Named<u64>,
    /// Chips carried over, by section key (sections with none left out).
    #[schema(schema_with = board_schema)]
    pub board: Named<u64>,
    pub ante: u64,
    #[schema(schema_with = hands_schema)]
    pub hands: Named<String>,
    pub poker: Poker,
    pub michigan: Michigan,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TripoleyDrillPoker)]
pub struct Poker {
    #[schema(schema_with = contributions_schema)]
    pub contributions: Named<u64>,
    pub folded: Vec<String>,
    /// The five cards each player still in shows.
    #[schema(schema_with = shown_schema)]
    pub shown: Named<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TripoleyDrillMichigan)]
pub struct Michigan {
    pub out: String,
    #[schema(schema_with = cards_left_schema)]
    pub cards_left: Named<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TripoleyAnswer)]
pub struct Answer {
    /// Each player's chips after the round minus before, in seating order.
    #[schema(schema_with = net_schema)]
    pub net: Named<i64>,
}

/// The schemas of the [`Named`] fields: objects keyed by name.
fn by_name(description: &str, values: Type) -> utoipa::openapi::schema::Schema {
    crate::common::schema::map_of(description, crate::common::schema::plain(values))
}

fn chips_schema() -> utoipa::openapi::schema::Schema {
    by_name("Each player's chips before the round.", Type::Integer)
}

fn board_schema() -> utoipa::openapi::schema::Schema {
    by_name("Chips carried over, by section key.", Type::Integer)
}

fn hands_schema() -> utoipa::openapi::schema::Schema {
    by_name(
        "Each player's hand by name, and the spare under \"spare\".",
        Type::String,
    )
}

fn contributions_schema() -> utoipa::openapi::schema::Schema {
    by_name(
        "The chips each player put into the poker pot.",
        Type::Integer,
    )
}

fn shown_schema() -> utoipa::openapi::schema::Schema {
    by_name("The five cards each player still in shows.", Type::String)
}

fn cards_left_schema() -> utoipa::openapi::schema::Schema {
    by_name(
        "The cards each player holds when the Michigan play ends.",
        Type::Integer,
    )
}

fn net_schema() -> utoipa::openapi::schema::Schema {
    by_name(
        "Each player's chips after the round minus before.",
        Type::Integer,
    )
}

impl Question {
    pub fn words(&self) -> String {
        let r = &self.round;
        let mut out = format!(
            "Tripoley ({}), {} deals, ante {} a section.\n",
            match r.profile {
                Profile::Cadaco => "cadaco",
                Profile::Classic => "classic",
            },
            r.dealer,
            r.ante
        );
        for (name, chips) in &r.chips.0 {
            let hand = r.hands.get(name).map_or("", String::as_str);
            out.push_str(&format!("  {name}: {chips} chips, dealt {hand}\n"));
        }
        out.push_str(&format!(
            "  spare: {}\n",
            r.hands.get("spare").map_or("", String::as_str)
        ));
        if !r.board.0.is_empty() {
            let carried: Vec<String> = r.board.0.iter().map(|(s, n)| format!("{s} {n}")).collect();
            out.push_str(&format!(
                "Carried over on the board: {}.\n",
                carried.join(", ")
            ));
        }
        let put: Vec<String> = r
            .poker
            .contributions
            .0
            .iter()
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        out.push_str(&format!("Poker: bets in all {}", put.join(", ")));
        if !r.poker.folded.is_empty() {
            out.push_str(&format!("; folded: {}", r.poker.folded.join(", ")));
        }
        let shown: Vec<String> = r
            .poker
            .shown
            .0
            .iter()
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        out.push_str(&format!("; shown: {}.\n", shown.join(", ")));
        let left: Vec<String> = r
            .michigan
            .cards_left
            .0
            .iter()
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        out.push_str(&format!(
            "Michigan: {} goes out first; cards left: {}.\n",
            r.michigan.out,
            left.join(", ")
        ));
        out.push_str("What is each player's net in chips for the round?");
        out
    }
}

impl Answer {
    pub fn words(&self) -> String {
        let nets: Vec<String> = self
            .net
            .0
            .iter()
            .map(|(n, c)| format!("{n} {c:+}"))
            .collect();
        format!("{}.", nets.join(", "))
    }
}

/// The round as the engine's input: the contract's fields, with the cards
/// as drawn (`hands` in the order of `r.hands`, `shown` in the order of
/// `r.poker.shown`) rather than written out and read back.
fn to_input(r: &Round, hands: &[Vec<Card>], shown: &[Vec<Card>]) -> RoundInput {
    let mut board = BoardInput::default();
    for (key, n) in &r.board.0 {
        let n = *n as i64;
        match key.as_str() {
            "ace" => board.ace = n,
            "king" => board.king = n,
            "queen" => board.queen = n,
            "jack" => board.jack = n,
            "ten" => board.ten = n,
            "king_queen" => board.king_queen = n,
            "eight_nine_ten" => board.eight_nine_ten = n,
            "kitty" => board.kitty = n,
            _ => board.pot = n,
        }
    }
    let as_i64 =
        |m: &Named<u64>| NameMap(m.0.iter().map(|(k, v)| (k.clone(), *v as i64)).collect());
    let cards = |m: &Named<String>, cards: &[Vec<Card>]| {
        NameMap(
            m.0.iter()
                .zip(cards)
                .map(|((k, _), c)| (k.clone(), CardsText::from_cards(c)))
                .collect(),
        )
    };
    RoundInput {
        profile: r.profile,
        players: r.players.clone(),
        dealer: r.dealer.clone(),
        chips: as_i64(&r.chips),
        board,
        ante: Some(r.ante as i64),
        hands: cards(&r.hands, hands),
        spare: None,
        poker: PokerInput {
            contributions: as_i64(&r.poker.contributions),
            folded: r.poker.folded.clone(),
            shown: cards(&r.poker.shown, shown),
        },
        michigan: MichiganInput {
            out: Some(r.michigan.out.clone()),
            blocked: false,
            cards_left: as_i64(&r.michigan.cards_left),
        },
        chip_value: None,
    }
}

pub(super) fn generate(level: Level, rng: &mut Rng) -> (Question, Answer, String) {
    let n = level.get() as usize + 2;
    let players: Vec<String> = PLAYERS[..n].iter().map(|p| p.to_string()).collect();
    let dealer = rng.below(n as u64) as usize;
    let hard = level >= Level::HARD;
    // Level 3: one player, not the dealer's left, is short and goes all-in.
    let short = hard.then(|| (dealer + 2) % n);
    let chips = stacks(n, short, rng);
    let board = carried_over(level, rng);
    let hands = deal(n, dealer, rng);
    let bet = rng.range(4, 10) as u64;
    let folder = hard.then(|| (dealer + 1) % n);
    let contributions = contributions(n, bet, short, folder, rng);
    let (shown, shown_cards) = showdown(&players, &hands, folder, rng);
    let michigan = michigan(&players, &hands, rng);
    let mut hand_texts: Vec<(String, String)> = (0..n)
        .map(|s| (players[s].clone(), format_cards(&hands[s])))
        .collect();
    hand_texts.push(("spare".to_string(), format_cards(&hands[n])));
    let mut round = Round {
        profile: Profile::Cadaco,
        dealer: players[dealer].clone(),
        chips: Named(players.iter().cloned().zip(chips).collect()),
        board: Named(board),
        ante: 1,
        hands: Named(hand_texts),
        poker: Poker {
            contributions: Named(players.iter().cloned().zip(contributions).collect()),
            folded: folder.map(|f| vec![players[f].clone()]).unwrap_or_default(),
            shown: Named(shown),
        },
        michigan,
        players,
    };
    let (answer, explanation) = play(&mut round, &hands, &shown_cards, short, bet);
    (Question { round }, answer, explanation)
}

/// Each player's chips; the `short` stack has barely more than the ante.
fn stacks(n: usize, short: Option<usize>, rng: &mut Rng) -> Vec<u64> {
    let mut chips: Vec<u64> = (0..n).map(|_| rng.range(20, 60) as u64).collect();
    if let Some(s) = short {
        chips[s] = 9 + rng.range(1, 3) as u64;
    }
    chips
}

/// From level 2: chips carried over on some sections of the board.
fn carried_over(level: Level, rng: &mut Rng) -> Vec<(String, u64)> {
    let mut board = Vec::new();
    if level >= Level::MEDIUM {
        for section in Section::ALL {
            if rng.chance(1, 3) {
                board.push((section.key().to_string(), rng.range(1, 6) as u64));
            }
        }
    }
    board
}

/// A shuffled deck dealt one card at a time from the dealer's left, the
/// spare hand (the last of `n + 1`) last.
fn deal(n: usize, dealer: usize, rng: &mut Rng) -> Vec<Vec<Card>> {
    let deck = shuffled(rng, false);
    let mut hands: Vec<Vec<_>> = vec![Vec::new(); n + 1];
    for (i, card) in deck.iter().enumerate() {
        hands[(i % (n + 1) + dealer + 1) % (n + 1)].push(*card);
    }
    hands
}

/// What each player puts in the Pot: the bet, less for the `folder`, and
/// nothing yet for the `short` stack.
fn contributions(
    n: usize,
    bet: u64,
    short: Option<usize>,
    folder: Option<usize>,
    rng: &mut Rng,
) -> Vec<u64> {
    (0..n)
        .map(|s| {
            if Some(s) == short {
                0 // set when played, from the stack the money cards leave
            } else if Some(s) == folder {
                rng.range(0, bet as i64 - 1) as u64
            } else {
                bet
            }
        })
        .collect()
}

/// Five cards, drawn at random, that each player still in shows: as text
/// by name, and as cards.
fn showdown(
    players: &[String],
    hands: &[Vec<Card>],
    folder: Option<usize>,
    rng: &mut Rng,
) -> (Vec<(String, String)>, Vec<Vec<Card>>) {
    let mut shown_cards = Vec::with_capacity(players.len());
    let shown = (0..players.len())
        .filter(|&s| Some(s) != folder)
        .map(|s| {
            let mut hand = hands[s].clone();
            rng.shuffle(&mut hand);
            hand.truncate(5);
            let text = format_cards(&hand);
            shown_cards.push(hand);
            (players[s].clone(), text)
        })
        .collect();
    (shown, shown_cards)
}

/// The Michigan's end: who went out, and how many cards the others hold.
fn michigan(players: &[String], hands: &[Vec<Card>], rng: &mut Rng) -> Michigan {
    let n = players.len();
    let out = rng.below(n as u64) as usize;
    let cards_left = (0..n)
        .filter(|&s| s != out)
        .map(|s| {
            (
                players[s].clone(),
                rng.range(1, hands[s].len() as i64) as u64,
            )
        })
        .collect();
    Michigan {
        out: players[out].clone(),
        cards_left: Named(cards_left),
    }
}

/// Plays the round once: up to the betting, where the `short` stack goes
/// all-in with what the antes and money cards left it, then on. The
/// answer (each player's net) and the engine's explanation.
fn play(
    round: &mut Round,
    hands: &[Vec<Card>],
    shown_cards: &[Vec<Card>],
    short: Option<usize>,
    bet: u64,
) -> (Answer, String) {
    let mut input = to_input(round, hands, shown_cards);
    let begun = engine(begin_round(&input), "the round");
    if let Some(s) = short {
        let all_in = begun.stacks()[s].min(bet);
        round.poker.contributions.0[s].1 = all_in;
        input.poker.contributions.0[s].1 = all_in as i64;
    }
    let output = engine(begun.finish(&input.poker, &input.michigan), "the round");
    let explanation: Vec<&str> = output
        .outcome
        .steps
        .iter()
        .map(|s| s.explanation.as_str())
        .collect();
    let answer = Answer {
        net: output.outcome.net,
    };
    (answer, explanation.join(" "))
}

/// The most chips an answer may say a player won or lost.
pub const NET_MAX: i64 = 100_000;

pub(super) fn grade(_q: &Question, a: &Answer, input: &AnswerInput) -> Result<bool, FieldError> {
    let fields = input.object(&["net"])?;
    let names: Vec<&str> = a.net.0.iter().map(|(n, _)| n.as_str()).collect();
    let given = keyed(fields.get("net")?, "net", &names, |v, path| {
        integer(v, path, -NET_MAX, NET_MAX, "a number of chips won or lost")
    })?;
    Ok(given.iter().zip(&a.net.0).all(|(g, (_, n))| g == n))
}
