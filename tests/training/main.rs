//! Training new dealers (docs/training.md): drills over the JSON API (runs, a
//! drill, an answer; the refusals 403/404/409/422 with nothing recorded;
//! tests and speed drills stopping), the pages (practice wrong then right,
//! a wrong shape kept beside its field, progress, every trainee, the pass
//! marks, the sign-off that promotes), and `audit verify` re-deriving it
//! all and catching a tampered row — on both databases.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod http_api;
mod http_pages;
mod http_verdict;
