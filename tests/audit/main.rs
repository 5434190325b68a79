//! The audit log: tampering detected (records, projections, staff,
//! Tripoley), the anchor log, `pitbook audit` (verify, export, CSV),
//! `pitbook backup` and `restore`, the migration that points settled
//! hands at their settlement record, and upgrades from every earlier schema.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod audit_tamper;
mod audit_tamper_hand_search;
mod audit_tamper_projections;
mod audit_tamper_rounds;
mod audit_tamper_staff;
mod audit_tamper_tripoley;
mod cli_anchor_log;
mod cli_audit;
mod cli_audit_csv;
mod cli_backup;
mod migration_key_expiry;
mod migration_settlement_seq;
mod migration_upgrades;
mod upgrade_template;
