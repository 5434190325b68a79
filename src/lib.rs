//! pitbook: settlement, payouts and scoring for cardroom staff.
//!
//! `domain` is the pure functional core; `store`, `web` and `cli` are the
//! imperative shell around it.

pub mod cli;
pub use pitbook_domain as domain;
pub mod store;
pub mod telemetry;
pub mod web;
