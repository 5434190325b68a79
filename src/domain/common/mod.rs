//! The pieces every game and the shell share: money, free text, the audit
//! chain and the one rule for a CSV cell.

pub mod audit;
pub mod csv_cell;
pub mod field_error;
pub mod money;
pub mod text;
