//! The contract's examples. A request example is JSON as a client sends it;
//! the answer shown for a compute route is the core's own answer to that
//! very request, computed as the document is built, so it cannot drift from
//! the code. Examples of the stateful routes are written out where their
//! route is; every example is checked against its schema (tests/server).

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// The core's answer to `request`, as the route sends it. An example the
/// core refuses is shown as what it is, an object no success schema
/// accepts, so the example check fails rather than the server.
pub fn answer<Q, R, E>(core: fn(&Q) -> Result<R, E>, request: Value) -> Value
where
    Q: DeserializeOwned,
    R: Serialize,
    E: std::fmt::Display,
{
    let refused = |e: String| json!({"example_refused": e});
    match serde_json::from_value::<Q>(request) {
        Ok(q) => match core(&q) {
            Ok(r) => serde_json::to_value(r).unwrap_or_else(|e| refused(e.to_string())),
            Err(e) => refused(e.to_string()),
        },
        Err(e) => refused(e.to_string()),
    }
}
