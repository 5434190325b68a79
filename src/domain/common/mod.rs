//! The pieces every game and the shell share: money, free text, the audit
//! chain, the one rule for a CSV cell and the one JSON parse naming the field,
//! and whether a backup file can be restored.

pub mod audit;
pub mod backup;
pub mod csv_cell;
pub mod field_error;
pub mod json;
pub mod money;
pub mod schema;
pub mod text;
