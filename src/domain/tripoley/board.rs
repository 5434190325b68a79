//! The board's nine sections and the ledger every chip moves through: each
//! move is checked (never more than a place holds) and the total of players
//! plus board is asserted constant.

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

use super::error::{TripoleyError, chips};
use super::step::{Step, StepKind};

/// A section of the Tripoley board, in the board's order.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[schema(as = TripoleySection)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    Ace,
    King,
    Queen,
    Jack,
    Ten,
    KingQueen,
    EightNineTen,
    Kitty,
    Pot,
}

impl Section {
    pub const ALL: [Section; 9] = [
        Section::Ace,
        Section::King,
        Section::Queen,
        Section::Jack,
        Section::Ten,
        Section::KingQueen,
        Section::EightNineTen,
        Section::Kitty,
        Section::Pot,
    ];

    /// The JSON key: `ace`, `king_queen`, `eight_nine_ten`.
    pub fn key(self) -> &'static str {
        match self {
            Section::Ace => "ace",
            Section::King => "king",
            Section::Queen => "queen",
            Section::Jack => "jack",
            Section::Ten => "ten",
            Section::KingQueen => "king_queen",
            Section::EightNineTen => "eight_nine_ten",
            Section::Kitty => "kitty",
            Section::Pot => "pot",
        }
    }

    /// As printed on the board: `Ace`, `King-Queen`, `8-9-10`.
    pub fn label(self) -> &'static str {
        match self {
            Section::Ace => "Ace",
            Section::King => "King",
            Section::Queen => "Queen",
            Section::Jack => "Jack",
            Section::Ten => "Ten",
            Section::KingQueen => "King-Queen",
            Section::EightNineTen => "8-9-10",
            Section::Kitty => "Kitty",
            Section::Pot => "Pot",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Chips on each section. JSON: an object with the nine keys in board order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Board([u64; 9]);

impl Board {
    pub fn get(&self, s: Section) -> u64 {
        self.0[s.index()]
    }

    pub fn set(&mut self, s: Section, chips: u64) {
        self.0[s.index()] = chips;
    }

    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// The board's schema in the API contract: the nine sections' chips, every
/// key always present.
impl utoipa::PartialSchema for Board {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use crate::common::schema::{object, plain};
        let chips = || plain(utoipa::openapi::schema::Type::Integer);
        object(
            "Chips on each section of the board, in the board's order.",
            Section::ALL.iter().map(|s| (s.key(), chips())).collect(),
        )
        .into()
    }
}

impl utoipa::ToSchema for Board {
    fn name() -> std::borrow::Cow<'static, str> {
        "TripoleyBoard".into()
    }
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(9))?;
        for section in Section::ALL {
            map.serialize_entry(section.key(), &self.get(section))?;
        }
        map.end()
    }
}

/// Where chips are: a player's stack (seat index) or a board section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Player(usize),
    Section(Section),
}

/// The chips of every player and section, the steps taken so far, and the
/// total that must never change.
#[derive(Debug, Clone)]
pub struct Ledger {
    pub names: Vec<String>,
    pub chips: Vec<u64>,
    pub board: Board,
    pub steps: Vec<Step>,
    total: u64,
}

/// What a step records beyond the move itself.
pub struct Note {
    pub kind: StepKind,
    pub remainder: u64,
    pub pot: Option<u32>,
    pub shortfall: Option<u64>,
    pub explanation: String,
}

impl Note {
    pub fn new(kind: StepKind, explanation: impl Into<String>) -> Note {
        Note {
            kind,
            remainder: 0,
            pot: None,
            shortfall: None,
            explanation: explanation.into(),
        }
    }

    pub fn remainder(mut self, remainder: u64) -> Note {
        self.remainder = remainder;
        self
    }
}

impl Ledger {
    pub fn new(names: Vec<String>, chips: Vec<u64>, board: Board) -> Ledger {
        let total = chips.iter().sum::<u64>() + board.total();
        Ledger {
            names,
            chips,
            board,
            steps: Vec::new(),
            total,
        }
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    pub fn held(&self, place: Place) -> u64 {
        match place {
            Place::Player(i) => self.chips.get(i).copied().unwrap_or(0),
            Place::Section(s) => self.board.get(s),
        }
    }

    fn set(&mut self, place: Place, value: u64) {
        match place {
            Place::Player(i) => {
                if let Some(c) = self.chips.get_mut(i) {
                    *c = value;
                }
            }
            Place::Section(s) => self.board.set(s, value),
        }
    }

    fn place_name(&self, place: Place) -> String {
        match place {
            Place::Player(i) => self.names.get(i).cloned().unwrap_or_default(),
            Place::Section(_) => "board".to_string(),
        }
    }

    /// Moves everything on `section` to `seat`'s stack: a section won
    /// whole. `explain` is given the chips moved.
    pub fn take_whole(
        &mut self,
        section: Section,
        seat: usize,
        kind: StepKind,
        explain: impl FnOnce(u64) -> String,
    ) -> Result<(), TripoleyError> {
        let on = self.board.get(section);
        let note = Note::new(kind, explain(on));
        self.transfer(Place::Section(section), Place::Player(seat), on, note)
    }

    /// Moves `n` chips and records the step. The section named on the step
    /// is the board end of the move (the source when both ends are sections).
    pub fn transfer(
        &mut self,
        from: Place,
        to: Place,
        n: u64,
        note: Note,
    ) -> Result<(), TripoleyError> {
        let have = self.held(from);
        let left = have.checked_sub(n).ok_or_else(|| {
            TripoleyError::Internal(format!(
                "{}: moving {} from {} holding {have}",
                note.kind.key(),
                chips(n),
                self.place_name(from)
            ))
        })?;
        self.set(from, left);
        self.set(to, self.held(to) + n);
        let section = match (from, to) {
            (Place::Section(s), _) | (_, Place::Section(s)) => Some(s),
            _ => None,
        };
        self.steps.push(Step {
            kind: note.kind,
            section,
            from: Some(self.place_name(from)),
            to: Some(self.place_name(to)),
            chips: n,
            remainder: note.remainder,
            pot: note.pot,
            shortfall: note.shortfall,
            explanation: note.explanation,
        });
        Ok(())
    }

    /// A player's ante: `per_section` chips onto each of the nine sections.
    pub fn ante(
        &mut self,
        seat: usize,
        per_section: u64,
        explanation: String,
    ) -> Result<(), TripoleyError> {
        let full = per_section * Section::ALL.len() as u64;
        let left = self
            .held(Place::Player(seat))
            .checked_sub(full)
            .ok_or_else(|| {
                TripoleyError::Internal(format!(
                    "ante of {} from {}",
                    chips(full),
                    self.place_name(Place::Player(seat))
                ))
            })?;
        self.set(Place::Player(seat), left);
        for section in Section::ALL {
            self.board
                .set(section, self.board.get(section) + per_section);
        }
        self.steps.push(Step {
            kind: StepKind::Ante,
            section: None,
            from: Some(self.place_name(Place::Player(seat))),
            to: Some("board".to_string()),
            chips: full,
            remainder: 0,
            pot: None,
            shortfall: None,
            explanation,
        });
        Ok(())
    }

    /// Records a step that moves no chips (a sit-out, a swap, a carry-over).
    pub fn note(
        &mut self,
        section: Option<Section>,
        from: Option<String>,
        to: Option<String>,
        note: Note,
    ) {
        self.steps.push(Step {
            kind: note.kind,
            section,
            from,
            to,
            chips: 0,
            remainder: note.remainder,
            pot: note.pot,
            shortfall: note.shortfall,
            explanation: note.explanation,
        });
    }

    /// The players' chips plus the board's must equal the total at the start.
    pub fn check_conservation(&self, during: &str) -> Result<(), TripoleyError> {
        let now = self.chips.iter().sum::<u64>() + self.board.total();
        if now == self.total {
            Ok(())
        } else {
            Err(TripoleyError::Conservation {
                during: during.to_string(),
                before: self.total,
                after: now,
            })
        }
    }
}
