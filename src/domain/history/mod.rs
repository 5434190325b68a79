//! Reviewing hand histories: the search filter (`filter.rs`: query-string
//! pairs in, a checked filter or the `FieldError`s out), the calendar dates
//! it names (`date.rs`), and what each hand holds for search (`people.rs`:
//! who was in it with what they staked, received and their net, and the
//! hand's totals), folded from its state so `audit verify` derives the same.

pub mod date;
pub mod filter;
pub mod filter_words;
pub mod people;
pub mod player;
pub mod totals;
pub mod units;

pub use date::{LocalDate, LocalDateTime};
pub use filter::{
    Criterion, Cursor, HandFilter, Kind, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, Period, Status,
    TimeRange, name_key,
};
pub use people::{HandPeople, Person, Role};
pub use player::{PlayerQuery, PlayerTotals};

#[cfg(test)]
mod filter_tests;
#[cfg(test)]
mod people_tests;
