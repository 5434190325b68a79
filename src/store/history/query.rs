//! A checked [`HandFilter`] as SQL: one clause per criterion (`clause`),
//! bound in order, one text for both databases. Names are matched against
//! `person_names` (a few thousand) first, then their hands found through
//! `hand_people_by_name`; everything else by the `hands` indexes. A filter
//! with one name is read from the name's people rows first
//! ([`person_conditions`]): the newest of its hands come from that index
//! alone, where walking every hand by time to test each for the name took
//! half a second at a million hands, and the rows copy the hand's criteria
//! so a name with a table, a day and an amount reads no hand row.

use crate::domain::history::units::to_e4;
use crate::domain::history::{Criterion, Cursor, HandFilter, Kind, Status};
use crate::store::StoreError;

/// A value bound to a `$n` placeholder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bind {
    Text(String),
    Int(i64),
    Bool(bool),
}

impl rusqlite::ToSql for Bind {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        match self {
            Bind::Text(t) => t.to_sql(),
            Bind::Int(i) => i.to_sql(),
            Bind::Bool(b) => b.to_sql(),
        }
    }
}

/// A WHERE clause under construction: its conditions and their binds.
#[derive(Debug, Default)]
pub struct Where {
    conditions: Vec<String>,
    pub binds: Vec<Bind>,
}

impl Where {
    /// The next placeholder, bound to `value`.
    fn bind(&mut self, value: Bind) -> String {
        self.binds.push(value);
        format!("${}", self.binds.len())
    }

    fn push(&mut self, condition: String) {
        self.conditions.push(condition);
    }

    /// ` WHERE a AND b`, or nothing.
    pub fn sql(&self) -> String {
        if self.conditions.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", self.conditions.join(" AND "))
        }
    }
}

/// `text` as a LIKE pattern matching it anywhere (its own `%` and `_`
/// taken literally).
fn contains(text: &str) -> String {
    let mut pattern = String::from("%");
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

fn money(m: crate::domain::common::money::Money) -> Result<Bind, StoreError> {
    // An amount finer than the finest unit: "at least" it is at least the
    // next ten-thousandth up (no hand holds a finer one).
    let up = m
        .as_decimal()
        .round_dp_with_strategy(4, rust_decimal::RoundingStrategy::ToPositiveInfinity);
    to_e4(crate::domain::common::money::Money::from_decimal(up))
        .map(Bind::Int)
        .ok_or_else(|| StoreError::Internal(format!("{m}: beyond the amounts a hand holds")))
}

/// The hands holding a person whose name key holds `key` (in `role`).
fn people(w: &mut Where, key: &str, role: Option<&str>) -> String {
    let pattern = name_pattern(w, key);
    let names = matching_names(&pattern);
    let role = match role {
        Some(r) => format!("p.role = '{r}' AND "),
        None => String::new(),
    };
    format!("h.id IN (SELECT p.hand_id FROM hand_people p WHERE {role}p.name_key IN ({names}))")
}

/// The hands with a note holding `key` (lower case): the notes' records
/// themselves, found by their own index (migration 0016), matched inside
/// the text of `{"type":"hand_note_added","text":"…"}` as recorded (the
/// key JSON-escaped as the text is). `LOWER` folds A–Z on both databases;
/// other letters on PostgreSQL only, so on SQLite an accented capital in a
/// note matches only as typed.
fn notes(w: &mut Where, key: &str, on: On) -> String {
    let escaped = serde_json::to_string(key).unwrap_or_default();
    let inner = escaped
        .strip_prefix('"')
        .and_then(|e| e.strip_suffix('"'))
        .unwrap_or("");
    let mut pattern = String::from(r#"{"type":"hand_note_added","text":""#);
    pattern.push_str(&contains(inner));
    pattern.push_str(r#""}"#);
    let pattern = w.bind(Bind::Text(pattern));
    format!(
        "{on}.{id} IN (SELECT a.hand_id FROM audit_log a WHERE a.event_type = 'hand_note_added' \
         AND LOWER(a.payload) LIKE {pattern} ESCAPE '\\')",
        on = on.alias(),
        id = on.hand_id()
    )
}

/// `key` as a pattern bound to the next placeholder (which it returns).
fn name_pattern(w: &mut Where, key: &str) -> String {
    w.bind(Bind::Text(contains(key)))
}

/// The names matching `pattern` (a LIKE over `person_names`, a few
/// thousand).
fn matching_names(pattern: &str) -> String {
    format!("SELECT n.name_key FROM person_names n WHERE n.name_key LIKE {pattern} ESCAPE '\\'")
}

/// The filter's one name criterion, if it has exactly one (PD or player):
/// its role (None: any) and key.
pub fn one_name(filter: &HandFilter) -> Option<(Option<&'static str>, &str)> {
    let mut names = filter.criteria.iter().filter_map(|c| match c {
        Criterion::Pd(k) => Some((Some("pd"), k.as_str())),
        Criterion::Player(k) => Some((None, k.as_str())),
        _ => None,
    });
    let first = names.next();
    if names.next().is_some() { None } else { first }
}

/// A one-name filter's conditions on `hand_people p` (the name, the time
/// range, the cursor and every criterion its rows copy of their hand,
/// migration 0019) and on its hand `h` (a hand number), and whether there
/// are any of the latter (then `h` must be joined). Any role: the row
/// that matches while none before it in the hand does (`keys_before`), so
/// each hand is one row. `postgres`: the statement is PostgreSQL's.
pub fn person_conditions(
    filter: &HandFilter,
    bounds: (Option<String>, Option<String>),
    cursor: Option<&Cursor>,
    names: Names,
    postgres: bool,
) -> Result<(Where, bool), StoreError> {
    let Some((role, key)) = one_name(filter) else {
        return Err(StoreError::Internal(
            "a person plan without one name".into(),
        ));
    };
    let mut w = Where::default();
    let pattern = name_pattern(&mut w, key);
    match names {
        Names::In => w.push(format!("p.name_key IN ({})", matching_names(&pattern))),
        Names::Each => w.push("p.name_key = n.name_key".to_string()),
        Names::InHalf(half) => w.push(format!(
            "p.name_key IN ({} AND (hashtext(n.name_key) & 1) = {})",
            matching_names(&pattern),
            half & 1
        )),
    }
    match role {
        Some(role) => w.push(format!("p.role = '{role}'")),
        // PostgreSQL: `strpos` of the key as typed, where a LIKE pattern
        // cost half as much again over the rows of a broad partial name
        // (BENCHMARKS.md, "Hand search"). The same test: the pattern takes
        // `%` and `_` literally, as `strpos` does, and a key holds no
        // control character, so neither matches across U+001F.
        None if postgres => {
            let key = w.bind(Bind::Text(key.to_string()));
            w.push(format!("strpos(p.keys_before, {key}) = 0"));
        }
        None => w.push(format!("p.keys_before NOT LIKE {pattern} ESCAPE '\\'")),
    }
    let mut joined = false;
    for c in &filter.criteria {
        if matches!(c, Criterion::Pd(_) | Criterion::Player(_)) {
            continue;
        }
        let on = if matches!(c, Criterion::Number(_)) {
            joined = true;
            On::Hand
        } else {
            On::Person
        };
        let condition = clause(&mut w, c, on)?;
        w.push(condition);
    }
    range_after(&mut w, bounds, cursor, ("p.opened_at", "p.hand_id"));
    Ok((w, joined))
}

/// How [`person_conditions`] ties the people rows to the matching names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// `p.name_key IN (the names matching $1)`: every matching name's rows
    /// at once.
    In,
    /// `p.name_key = n.name_key`: one name's rows, for a query that takes
    /// each matching name `n` in turn ([`EACH_NAME`]); `$1` is still the
    /// pattern.
    Each,
    /// As `In`, of the matching names only those whose key hashes to this
    /// half (PostgreSQL's `hashtext`): the two halves read on two
    /// connections at once.
    InHalf(u8),
}

/// The names a [`Names::Each`] query takes in turn, `person_names n`: those
/// matching the pattern bound to `$1`.
pub const EACH_NAME: &str = "n.name_key LIKE $1 ESCAPE '\\'";

/// `[from, to)` on `column`.
fn range(w: &mut Where, bounds: (Option<String>, Option<String>), column: &str) {
    if let Some(from) = bounds.0 {
        let from = w.bind(Bind::Text(from));
        w.push(format!("{column} >= {from}"));
    }
    if let Some(to) = bounds.1 {
        let to = w.bind(Bind::Text(to));
        w.push(format!("{column} < {to}"));
    }
}

/// `[from, to)` on the time column of `(time, id)`, and the rows before
/// the cursor (`(time, id) < cursor`). The cursor's time is also an upper
/// bound on the time alone, in place of `to` when it is earlier (as it is
/// for every cursor the search gave): SQLite seeks an index only by a
/// column's own bounds, not a row value, and with `< to` as its upper bound
/// it walked every hand from `to` down to the cursor for each page (the
/// export's reading of a week: 164 pages skipped on average, per page).
fn range_after(
    w: &mut Where,
    bounds: (Option<String>, Option<String>),
    cursor: Option<&Cursor>,
    (time, id): (&str, &str),
) {
    let Some(c) = cursor else {
        return range(w, bounds, time);
    };
    let (from, to) = bounds;
    let to = to.filter(|to| *to <= c.opened_at);
    range(w, (from, to), time);
    let at = w.bind(Bind::Text(c.opened_at.clone()));
    w.push(format!("{time} <= {at}"));
    let cursor_id = w.bind(Bind::Text(c.id.clone()));
    w.push(format!("({time}, {id}) < ({at}, {cursor_id})"));
}

/// The index of the filter's amount criterion (bank, then wager), which
/// SQLite is told to read for a small set: it would rather walk every
/// hand newest first for the few that qualify.
pub fn amount_index(filter: &HandFilter) -> Option<&'static str> {
    let bank = filter
        .criteria
        .iter()
        .any(|c| matches!(c, Criterion::BankAtLeast(_)));
    let wager = filter
        .criteria
        .iter()
        .any(|c| matches!(c, Criterion::WagerAtLeast(_)));
    if bank {
        Some("hands_by_bank")
    } else if wager {
        Some("hands_by_max_wager")
    } else {
        None
    }
}

/// A filter of one amount alone ("bank at least", "wager at least") over
/// all time: its conditions on `hand_amounts h`.
pub fn amount_alone(
    filter: &HandFilter,
    bounds: &(Option<String>, Option<String>),
) -> Result<Option<Where>, StoreError> {
    let (kind, m) = match (filter.criteria.as_slice(), bounds) {
        ([Criterion::BankAtLeast(m)], (None, None)) => ("bank", m),
        ([Criterion::WagerAtLeast(m)], (None, None)) => ("max_wager", m),
        _ => return Ok(None),
    };
    let mut w = Where::default();
    let at_least = w.bind(money(*m)?);
    w.push(format!("h.amount = '{kind}'"));
    w.push(format!("h.amount_e4 >= {at_least}"));
    Ok(Some(w))
}

/// A rollup of each UTC day's hands a filter's totals can sum whole days
/// from: one whose keys every criterion of the filter tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DayRollup {
    /// `hand_days` (migration 0018): tables, states and kinds, or nothing.
    Tables,
    /// `hand_dealer_days` (migration 0028): a dealer and states.
    Dealer,
}

impl DayRollup {
    /// The rollup's table, whose columns are named as the hands' are.
    pub fn table(self) -> &'static str {
        match self {
            DayRollup::Tables => "hand_days",
            DayRollup::Dealer => "hand_dealer_days",
        }
    }
}

/// The day rollup every criterion of `filter` is a key of, if any.
pub fn day_rollup(filter: &HandFilter) -> Option<DayRollup> {
    let all = |keyed: fn(&Criterion) -> bool| filter.criteria.iter().all(keyed);
    if all(|c| {
        matches!(
            c,
            Criterion::Table(_) | Criterion::Status(_) | Criterion::Kind(_)
        )
    }) {
        Some(DayRollup::Tables)
    } else if all(|c| matches!(c, Criterion::Dealer(_) | Criterion::Status(_))) {
        Some(DayRollup::Dealer)
    } else {
        None
    }
}

/// The criteria's conditions on `h` (the hands or a [`DayRollup`]), with
/// `extra` (a time condition written with `w`'s binds) after them.
pub fn criteria_conditions(
    w: &mut Where,
    filter: &HandFilter,
    extra: impl FnOnce(&mut Where) -> Option<String>,
) -> Result<String, StoreError> {
    let mut conditions = Vec::new();
    for c in &filter.criteria {
        conditions.push(clause(w, c, On::Hand)?);
    }
    conditions.extend(extra(w));
    Ok(if conditions.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", conditions.join(" AND "))
    })
}

impl Where {
    /// The next placeholder, bound to `text` (for a statement assembled
    /// from several clauses).
    pub fn bind_text(&mut self, text: String) -> String {
        self.bind(Bind::Text(text))
    }
}

/// Which rows a criterion is tested on: the hand's (`hands h`, or
/// a [`DayRollup`]'s `h` for its keys) or a person's (`hand_people p`, which copies
/// the hand's criteria under the same names, all but its number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum On {
    Hand,
    Person,
}

impl On {
    fn alias(self) -> &'static str {
        match self {
            On::Hand => "h",
            On::Person => "p",
        }
    }

    /// The hand's id column.
    fn hand_id(self) -> &'static str {
        match self {
            On::Hand => "id",
            On::Person => "hand_id",
        }
    }
}

/// One criterion's condition on `on`'s rows.
fn clause(w: &mut Where, c: &Criterion, on: On) -> Result<String, StoreError> {
    let a = on.alias();
    Ok(match c {
        Criterion::Table(t) => format!("{a}.table_id = {}", w.bind(Bind::Text(t.clone()))),
        Criterion::Dealer(d) => format!("{a}.dealer = {}", w.bind(Bind::Text(d.clone()))),
        Criterion::Pd(name) => people(w, name, Some("pd")),
        Criterion::Player(name) => people(w, name, None),
        Criterion::Status(Status::Open) => format!("{a}.status IN ('betting', 'dealt')"),
        Criterion::Status(Status::Closed) => format!("{a}.status = 'closed'"),
        Criterion::Status(Status::Corrected) => {
            format!("{a}.status = 'closed' AND {a}.corrected = 1")
        }
        Criterion::Status(Status::Voided) => format!("{a}.status = 'voided'"),
        // Tested hand by hand (a correlated EXISTS): an IN list of tables
        // would have SQLite read every such table's hands and sort them
        // rather than walk the newest first (1.1 s at a million hands).
        Criterion::Kind(kind) => {
            let training = w.bind(Bind::Bool(*kind == Kind::Training));
            format!(
                "EXISTS (SELECT 1 FROM card_tables t WHERE t.name = {a}.table_id \
                 AND t.training = {training})"
            )
        }
        Criterion::BankAtLeast(m) => format!("{a}.bank_e4 >= {}", w.bind(money(*m)?)),
        Criterion::WagerAtLeast(m) => format!("{a}.max_wager_e4 >= {}", w.bind(money(*m)?)),
        Criterion::Number(n) => format!("h.number = {}", w.bind(Bind::Int(*n))),
        Criterion::Note(text) => notes(w, text, on),
    })
}

/// The filter's conditions, the time range's UTC bounds (`[from, to)`)
/// and, for a page after the first, the cursor.
pub fn conditions(
    filter: &HandFilter,
    bounds: (Option<String>, Option<String>),
    cursor: Option<&Cursor>,
) -> Result<Where, StoreError> {
    let mut w = Where::default();
    for c in &filter.criteria {
        let condition = clause(&mut w, c, On::Hand)?;
        w.push(condition);
    }
    range_after(&mut w, bounds, cursor, ("h.opened_at", "h.id"));
    Ok(w)
}
