//! A player's history: every hand where a name appears (as PD or bettor),
//! newest first by keyset, with what they staked, received and their net,
//! and the totals over all of them; the names that hold it when none is
//! exactly it.

use serde::Serialize;
use sqlx::Row;

use crate::domain::common::money::Money;
use crate::domain::history::units::from_e4;
use crate::domain::history::{Cursor, PlayerQuery, PlayerTotals};
use crate::store::{Db, StoreError};

/// One part a person played in one hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PlayerHand {
    pub hand_id: String,
    pub table: String,
    pub number: i64,
    pub opened_at: String,
    pub status: String,
    pub corrected: bool,
    /// `pd` or `bettor`.
    pub role: String,
    /// The name as typed in that hand.
    pub name: String,
    pub staked: Money,
    pub received: Option<Money>,
    pub net: Option<Money>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PlayerHistory {
    pub name: String,
    pub hands: Vec<PlayerHand>,
    pub totals: PlayerTotals,
    pub next: Option<String>,
    /// Names holding the one asked for, when it matched no hand.
    pub did_you_mean: Vec<String>,
}

/// Most names offered.
const SUGGESTIONS_MAX: i64 = 20;

pub async fn history(db: &Db, q: &PlayerQuery) -> Result<PlayerHistory, StoreError> {
    let limit = q.limit as i64;
    let after = q.after.as_ref();
    let sql = format!(
        "SELECT p.hand_id, h.table_id, h.number, p.opened_at, h.status, h.corrected, p.role, \
         p.name, p.staked_e4, p.received_e4, p.net_e4 FROM hand_people p \
         JOIN hands h ON h.id = p.hand_id WHERE p.name_key = $1{} \
         ORDER BY p.opened_at DESC, p.hand_id DESC, p.role LIMIT {}",
        if after.is_some() {
            " AND (p.opened_at, p.hand_id) < ($2, $3)"
        } else {
            ""
        },
        limit + 1
    );
    let mut hands: Vec<PlayerHand> = on_pool!(db, |pool| {
        let mut query = sqlx::query(&sql).bind(&q.key);
        if let Some(c) = after {
            query = query.bind(&c.opened_at).bind(&c.id);
        }
        query
            .fetch_all(pool)
            .await?
            .iter()
            .map(|r| {
                Ok::<_, sqlx::Error>(PlayerHand {
                    hand_id: r.try_get(0)?,
                    table: r.try_get(1)?,
                    number: r.try_get(2)?,
                    opened_at: r.try_get(3)?,
                    status: r.try_get(4)?,
                    corrected: r.try_get::<i64, _>(5)? != 0,
                    role: r.try_get(6)?,
                    name: r.try_get(7)?,
                    staked: from_e4(r.try_get(8)?),
                    received: r.try_get::<Option<i64>, _>(9)?.map(from_e4),
                    net: r.try_get::<Option<i64>, _>(10)?.map(from_e4),
                })
            })
            .collect::<Result<Vec<_>, _>>()?
    });
    // A page ends between hands: a hand where the name is PD and bettor
    // is two rows, kept together.
    let mut next = None;
    if hands.len() as i64 > limit {
        let last = hands[q.limit].hand_id.clone();
        hands.retain(|h| h.hand_id != last);
        next = hands.last().map(|h| {
            Cursor {
                opened_at: h.opened_at.clone(),
                id: h.hand_id.clone(),
            }
            .encode()
        });
    }
    let totals = totals(db, &q.key).await?;
    let count = totals.all_hands();
    let did_you_mean = if count == 0 {
        suggestions(db, &q.key).await?
    } else {
        Vec::new()
    };
    Ok(PlayerHistory {
        name: q.name.clone(),
        hands,
        totals,
        next,
        did_you_mean,
    })
}

/// The totals of the name `key` by the core's rule ([`PlayerTotals`]): the
/// closed hands' money summed, the open and voided hands counted.
async fn totals(db: &Db, key: &str) -> Result<PlayerTotals, StoreError> {
    let [summed, open, voided] = super::totals::by_state("status");
    let sum = |column: &str| {
        format!("CAST(COALESCE(SUM(CASE WHEN {summed} THEN {column} END), 0) AS BIGINT)")
    };
    let count = |when: &str| format!("COUNT(DISTINCT CASE WHEN {when} THEN hand_id END)");
    let sql = format!(
        "SELECT {}, {}, {}, {}, {}, {} FROM hand_people WHERE name_key = $1",
        count(&summed),
        sum("staked_e4"),
        sum("received_e4"),
        sum("net_e4"),
        count(&open),
        count(&voided),
    );
    let row: (i64, i64, i64, i64, i64, i64) = on_pool!(db, |pool| {
        let r = sqlx::query(&sql).bind(key).fetch_one(pool).await?;
        (
            r.try_get(0)?,
            r.try_get(1)?,
            r.try_get(2)?,
            r.try_get(3)?,
            r.try_get(4)?,
            r.try_get(5)?,
        )
    });
    let (hands, staked, received, net, open, voided) = row;
    PlayerTotals {
        hands,
        staked: from_e4(staked),
        received: from_e4(received),
        net: from_e4(net),
        open,
        voided,
    }
    .checked()
    .map_err(StoreError::Internal)
}

/// The names (as first typed) whose key holds `key`.
async fn suggestions(db: &Db, key: &str) -> Result<Vec<String>, StoreError> {
    let mut pattern = String::from("%");
    for c in key.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    let sql = format!(
        "SELECT (SELECT p.name FROM hand_people p WHERE p.name_key = n.name_key \
         ORDER BY p.opened_at LIMIT 1) FROM person_names n \
         WHERE n.name_key LIKE $1 ESCAPE '\\' ORDER BY n.name_key LIMIT {SUGGESTIONS_MAX}"
    );
    Ok(on_pool!(db, |pool| sqlx::query(&sql)
        .bind(&pattern)
        .fetch_all(pool)
        .await?
        .iter()
        .filter_map(|r| r.get::<Option<String>, _>(0))
        .collect()))
}
