//! The result of one position's hands against the Player-Dealer's.

use std::fmt;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Both player hands beat the PD's.
    Player,
    /// Both lost or copied, or the player's hand fouled.
    Pd,
    /// One hand won, the other lost or copied.
    Push,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Player => "player",
            Outcome::Pd => "pd",
            Outcome::Push => "push",
        })
    }
}
