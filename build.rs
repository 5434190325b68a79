//! Rebuilds when a migration is added or changed: `sqlx::migrate!` embeds
//! the files of `migrations/` at compile time but cannot tell cargo to
//! watch them on stable Rust (sqlx's documented remedy), so a new
//! migration alone would leave a stale binary and test binaries.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
