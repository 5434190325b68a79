//! The table every calculation starts from, checked: the players in seating
//! order, the dealer, each player's chips and the board. The limits on every
//! number live here.

use super::board::{Board, Section};
use super::error::TripoleyError;
use super::input::{BoardInput, NameMap};
use crate::common::money::Money;
use crate::common::text::{FreeText, TextError, escaped};

/// Fewest players at the table.
pub const PLAYERS_MIN: usize = 2;
/// Most players: seed 001 says 2–9, and with the spare hand every player
/// then holds at least five cards (52 / 10).
pub const PLAYERS_MAX: usize = 9;
/// Longest player name, in characters.
pub const NAME_MAX: usize = 40;
/// Most chips a player, a section, a bet or a price may be.
pub const CHIPS_MAX: u64 = 1_000_000;
/// Most chips per section a player antes.
pub const ANTE_MAX: u64 = 1_000;
/// Highest money value of one chip.
pub const CHIP_VALUE_MAX: i64 = 1_000_000;
/// Names that mean something else in the output.
const RESERVED: [&str; 2] = ["spare", "board"];

/// Players, dealer, chips and board, as checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub names: Vec<String>,
    pub dealer: usize,
    pub chips: Vec<u64>,
    pub board: Board,
}

impl Table {
    pub fn check(
        players: &[String],
        dealer: &str,
        chips: &NameMap<i64>,
        board: &BoardInput,
    ) -> Result<Table, TripoleyError> {
        let names = check_players(players)?;
        let dealer = seat_of(&names, dealer).ok_or_else(|| {
            TripoleyError::input("dealer", format!("\"{dealer}\" is not among the players"))
        })?;
        let mut stacks = vec![None; names.len()];
        for (name, &value) in chips.iter() {
            let field = || format!("chips.{name}");
            let seat = seat_of(&names, name).ok_or_else(|| not_at_table(&field(), name))?;
            stacks[seat] = Some(chip_count_named(field, value, CHIPS_MAX)?);
        }
        let chips = names
            .iter()
            .zip(stacks)
            .map(|(name, c)| {
                c.ok_or_else(|| {
                    TripoleyError::input("chips", format!("no chips given for \"{name}\""))
                })
            })
            .collect::<Result<Vec<u64>, _>>()?;
        Ok(Table {
            names,
            dealer,
            chips,
            board: check_board(board)?,
        })
    }

    /// The seat `n` places to the left of `seat`.
    pub fn left_of(&self, seat: usize, n: usize) -> usize {
        (seat + n) % self.names.len()
    }
}

fn check_players(players: &[String]) -> Result<Vec<String>, TripoleyError> {
    if !(PLAYERS_MIN..=PLAYERS_MAX).contains(&players.len()) {
        return Err(TripoleyError::input(
            "players",
            format!(
                "{} players; Tripoley is played by {PLAYERS_MIN} to {PLAYERS_MAX}",
                players.len()
            ),
        ));
    }
    let mut names: Vec<String> = Vec::with_capacity(players.len());
    for (i, typed) in players.iter().enumerate() {
        let field = || format!("players[{i}]");
        // Free text: trimmed, NFC, nothing invisible; recorded normalised,
        // so "Jose\u{301}" and "José" are one player. A name that is
        // already what `FreeText::line` makes of it is taken as it is.
        let name = if FreeText::is_line(typed, NAME_MAX) {
            typed.clone()
        } else {
            FreeText::line(&field(), typed, NAME_MAX)
                .map_err(|e| TripoleyError::input(field(), text_message(&e)))?
                .into_string()
        };
        if RESERVED.iter().any(|r| name.eq_ignore_ascii_case(r)) {
            return Err(TripoleyError::input(
                field(),
                format!("\"{name}\" is reserved; choose another name"),
            ));
        }
        if names.contains(&name) {
            return Err(TripoleyError::input(
                field(),
                format!("\"{}\" is at the table twice", escaped(typed)),
            ));
        }
        names.push(name);
    }
    Ok(names)
}

/// A refused name's message: the value as typed (invisible characters
/// escaped) and why.
fn text_message(e: &TextError) -> String {
    format!("\"{}\" {}", escaped(&e.value), e.message)
}

/// The seat of a player named as typed: exactly, or as its free text
/// (trimmed, NFC) — the names at the table are stored normalised.
pub fn seat_of(names: &[String], name: &str) -> Option<usize> {
    names.iter().position(|n| n == name).or_else(|| {
        let text = FreeText::line("name", name, usize::MAX).ok()?;
        names.iter().position(|n| n == text.as_str())
    })
}

pub fn not_at_table(field: &str, name: &str) -> TripoleyError {
    TripoleyError::input(field, format!("\"{name}\" is not at the table"))
}

/// [`chip_count`], the field named only when the value is refused.
pub fn chip_count_named(
    field: impl FnOnce() -> String,
    value: i64,
    max: u64,
) -> Result<u64, TripoleyError> {
    match u64::try_from(value) {
        Ok(v) if v <= max => Ok(v),
        _ => chip_count(&field(), value, max),
    }
}

/// A whole number of chips from 0 to `max`.
pub fn chip_count(field: &str, value: i64, max: u64) -> Result<u64, TripoleyError> {
    u64::try_from(value)
        .ok()
        .filter(|&v| v <= max)
        .ok_or_else(|| {
            TripoleyError::input(
                field,
                format!("{value} is not a number of chips from 0 to {max}"),
            )
        })
}

fn check_board(b: &BoardInput) -> Result<Board, TripoleyError> {
    let values = [
        b.ace,
        b.king,
        b.queen,
        b.jack,
        b.ten,
        b.king_queen,
        b.eight_nine_ten,
        b.kitty,
        b.pot,
    ];
    let mut board = Board::default();
    for (section, value) in Section::ALL.into_iter().zip(values) {
        board.set(
            section,
            chip_count_named(|| format!("board.{}", section.key()), value, CHIPS_MAX)?,
        );
    }
    Ok(board)
}

/// A chip's money value: more than 0, at most [`CHIP_VALUE_MAX`].
pub fn check_chip_value(value: Option<Money>) -> Result<Option<Money>, TripoleyError> {
    match value {
        Some(v) if v.is_negative() || v.is_zero() || v > Money::from_units(CHIP_VALUE_MAX) => {
            Err(TripoleyError::input(
                "chip_value",
                format!("\"{v}\" is not a chip value (more than 0, at most {CHIP_VALUE_MAX})"),
            ))
        }
        other => Ok(other),
    }
}

/// The seat of `name`, who must be at the table and in the round.
pub fn round_seat(
    table: &Table,
    in_round: &[bool],
    field: &str,
    name: &str,
) -> Result<usize, TripoleyError> {
    let seat = seat_of(&table.names, name).ok_or_else(|| not_at_table(field, name))?;
    if !in_round[seat] {
        return Err(TripoleyError::input(
            field,
            format!("\"{name}\" sits this round out"),
        ));
    }
    Ok(seat)
}
