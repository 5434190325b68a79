//! Login throttling as a pure state machine (the shell passes the time, in
//! milliseconds). Failed logins are counted per (user name, client address)
//! and per client address, never per user name alone, so an attacker at
//! another address cannot lock the real user out. Past a few free failures
//! each further attempt waits a growing back-off (1 s, 2 s, 4 s … capped);
//! a refused (throttled) attempt checks no password and writes no record.
//! Failures are summarised: one [`Summary`] per (user, address) and window,
//! given to the shell when the window closes (or the user signs in from
//! that address, or the entry is evicted), for one `login_failures` record.
//! Memory is bounded: at most [`Limits::max_entries`] entries of each kind.

use std::collections::HashMap;
use std::net::IpAddr;

/// The figures (docs/staff.md has what they allow per minute).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Failures of one user name from one address before the back-off.
    pub pair_free: u32,
    /// Failures from one address (any user names) before the back-off.
    pub address_free: u32,
    /// The first back-off; each further failure doubles it…
    pub backoff_first_ms: i64,
    /// …up to this.
    pub backoff_max_ms: i64,
    /// Counting starts at a key's first failure and ends this long after.
    pub window_ms: i64,
    /// Most entries kept of each kind (pairs, addresses).
    pub max_entries: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            pair_free: 5,
            address_free: 20,
            backoff_first_ms: 1_000,
            backoff_max_ms: 60_000,
            window_ms: 15 * 60_000,
            max_entries: 10_000,
        }
    }
}

/// One (user name, address)'s failed logins in one window, for the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub username: String,
    pub address: IpAddr,
    /// Failed attempts: passwords checked and wrong, and attempts refused
    /// by the back-off.
    pub count: u64,
    pub window_start_ms: i64,
}

/// An attempt refused without checking the password.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throttled {
    pub retry_after_ms: i64,
}

#[derive(Debug, Clone, Copy)]
struct Counter {
    window_start_ms: i64,
    /// Attempts counted against the back-off (passwords checked).
    failures: u32,
    /// Attempts refused by the back-off.
    refused: u64,
    last_ms: i64,
}

impl Counter {
    fn new(now: i64) -> Counter {
        Counter {
            window_start_ms: now,
            failures: 0,
            refused: 0,
            last_ms: now,
        }
    }

    /// Milliseconds until the next attempt may be checked (0: now).
    fn wait_ms(&self, free: u32, limits: &Limits, now: i64) -> i64 {
        if self.failures < free {
            return 0;
        }
        let steps = (self.failures - free).min(30);
        let backoff = limits
            .backoff_first_ms
            .saturating_mul(1i64 << steps)
            .min(limits.backoff_max_ms);
        (self.last_ms + backoff - now).max(0)
    }

    fn closed(&self, limits: &Limits, now: i64) -> bool {
        now >= self.window_start_ms + limits.window_ms
    }
}

type Pair = (String, IpAddr);

/// The throttle's state. The shell keeps one per process behind a lock.
#[derive(Debug, Default)]
pub struct LoginThrottle {
    limits: Limits,
    pairs: HashMap<Pair, Counter>,
    addresses: HashMap<IpAddr, Counter>,
    /// Summaries due but not yet handed over (found on a refused attempt).
    pending: Vec<Summary>,
}

fn summary((username, address): &Pair, c: &Counter) -> Option<Summary> {
    let count = u64::from(c.failures) + c.refused;
    (count > 0).then(|| Summary {
        username: username.clone(),
        address: *address,
        count,
        window_start_ms: c.window_start_ms,
    })
}

impl LoginThrottle {
    pub fn new(limits: Limits) -> LoginThrottle {
        LoginThrottle {
            limits,
            ..LoginThrottle::default()
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// A login attempt of `username` from `address` at `now`. Refused while
    /// the address or the pair is in its back-off (counted, nothing else).
    /// Allowed, it is counted as a failure at once — so parallel guesses
    /// cannot slip past the count — and [`LoginThrottle::succeeded`] takes
    /// it back. Returns the summaries due (a closed window, an eviction).
    pub fn attempt(
        &mut self,
        username: &str,
        address: IpAddr,
        now: i64,
    ) -> Result<Vec<Summary>, Throttled> {
        let limits = self.limits;
        let mut due = Vec::new();
        let key = (username.to_string(), address);
        if let Some(c) = self.pairs.get(&key)
            && c.closed(&limits, now)
        {
            due.extend(summary(&key, c));
            self.pairs.remove(&key);
        }
        if self
            .addresses
            .get(&address)
            .is_some_and(|c| c.closed(&limits, now))
        {
            self.addresses.remove(&address);
        }
        let address_wait = self
            .addresses
            .get(&address)
            .map_or(0, |c| c.wait_ms(limits.address_free, &limits, now));
        let pair_wait = self
            .pairs
            .get(&key)
            .map_or(0, |c| c.wait_ms(limits.pair_free, &limits, now));
        let wait = address_wait.max(pair_wait);
        if wait > 0 {
            if let Some(c) = self.pairs.get_mut(&key) {
                c.refused += 1;
            }
            // A summary due is handed over with the next allowed attempt
            // or sweep, even though this attempt is refused.
            self.pending.extend(due);
            return Err(Throttled {
                retry_after_ms: wait,
            });
        }
        if !self.pairs.contains_key(&key) && self.pairs.len() >= limits.max_entries {
            due.extend(self.evict_pair(now));
        }
        if !self.addresses.contains_key(&address) && self.addresses.len() >= limits.max_entries {
            self.evict_address(now);
        }
        for c in [
            self.pairs.entry(key).or_insert_with(|| Counter::new(now)),
            self.addresses
                .entry(address)
                .or_insert_with(|| Counter::new(now)),
        ] {
            c.failures += 1;
            c.last_ms = now;
        }
        due.append(&mut self.pending);
        Ok(due)
    }

    /// The attempt allowed by [`LoginThrottle::attempt`] signed in: the
    /// pair's count is reset (its summary, without this attempt, is
    /// returned when there were failures); the address's count is only
    /// relieved of this attempt.
    pub fn succeeded(&mut self, username: &str, address: IpAddr) -> Option<Summary> {
        if let Some(c) = self.addresses.get_mut(&address) {
            c.failures = c.failures.saturating_sub(1);
        }
        let key = (username.to_string(), address);
        let mut c = self.pairs.remove(&key)?;
        c.failures = c.failures.saturating_sub(1);
        summary(&key, &c)
    }

    /// The summaries of every window closed by `now` (their entries go).
    pub fn take_due(&mut self, now: i64) -> Vec<Summary> {
        let limits = self.limits;
        let mut due = std::mem::take(&mut self.pending);
        self.pairs.retain(|key, c| {
            if c.closed(&limits, now) {
                due.extend(summary(key, c));
                false
            } else {
                true
            }
        });
        self.addresses.retain(|_, c| !c.closed(&limits, now));
        due.sort_by(|a, b| (a.window_start_ms, &a.username).cmp(&(b.window_start_ms, &b.username)));
        due
    }

    /// Every summary still open (at shutdown), closed early.
    pub fn take_all(&mut self) -> Vec<Summary> {
        self.take_due(i64::MAX)
    }

    /// Entries held (pairs, addresses).
    pub fn len(&self) -> (usize, usize) {
        (self.pairs.len(), self.addresses.len())
    }

    fn evict_pair(&mut self, now: i64) -> Vec<Summary> {
        let mut due = self.take_due(now);
        if self.pairs.len() >= self.limits.max_entries
            && let Some(oldest) = self
                .pairs
                .iter()
                .min_by_key(|(_, c)| c.last_ms)
                .map(|(k, _)| k.clone())
            && let Some(c) = self.pairs.remove(&oldest)
        {
            due.extend(summary(&oldest, &c));
        }
        due
    }

    fn evict_address(&mut self, now: i64) {
        let limits = self.limits;
        self.addresses.retain(|_, c| !c.closed(&limits, now));
        if self.addresses.len() >= limits.max_entries
            && let Some(oldest) = self
                .addresses
                .iter()
                .min_by_key(|(_, c)| c.last_ms)
                .map(|(k, _)| *k)
        {
            self.addresses.remove(&oldest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("address")
    }

    /// Attempts `username` from `address` every `every_ms` for `n` attempts
    /// from `start`, all failing; returns (checked, refused, summaries).
    fn flood(
        t: &mut LoginThrottle,
        username: &dyn Fn(usize) -> String,
        address: IpAddr,
        start: i64,
        every_ms: i64,
        n: usize,
    ) -> (usize, usize, Vec<Summary>) {
        let (mut checked, mut refused, mut due) = (0, 0, Vec::new());
        for i in 0..n {
            match t.attempt(&username(i), address, start + i as i64 * every_ms) {
                Ok(d) => {
                    checked += 1;
                    due.extend(d);
                }
                Err(_) => refused += 1,
            }
        }
        (checked, refused, due)
    }

    #[test]
    fn the_back_off_grows_and_is_capped() {
        let mut t = LoginThrottle::new(Limits::default());
        let a = ip("203.0.113.9");
        for i in 0..5 {
            assert!(t.attempt("dana", a, i).is_ok(), "free attempt {i}");
        }
        assert_eq!(
            t.attempt("dana", a, 10),
            Err(Throttled {
                retry_after_ms: 1_000 - 6
            })
        );
        assert!(t.attempt("dana", a, 4 + 1_000).is_ok(), "after 1 s");
        assert!(t.attempt("dana", a, 4 + 1_000 + 1_999).is_err(), "2 s now");
        assert!(t.attempt("dana", a, 4 + 1_000 + 2_000).is_ok());
        let mut now = 4 + 1_000 + 2_000;
        for step in [4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000] {
            assert!(t.attempt("dana", a, now + step - 1).is_err(), "{step}");
            now += step;
            assert!(t.attempt("dana", a, now).is_ok(), "{step}");
        }
    }

    #[test]
    fn another_address_is_not_locked_out() {
        let mut t = LoginThrottle::new(Limits::default());
        let attacker = ip("198.51.100.7");
        let (_, refused, _) = flood(&mut t, &|_| "dana".into(), attacker, 0, 10, 200);
        assert!(refused > 180, "{refused}");
        let home = ip("192.0.2.1");
        assert!(t.attempt("dana", home, 2_000).is_ok());
        assert_eq!(t.succeeded("dana", home), None, "no failures from home");
        // A user name from one address: its own back-off, the address's free count.
        let mut t = LoginThrottle::new(Limits::default());
        flood(&mut t, &|_| "dana".into(), attacker, 0, 10, 50);
        assert!(t.attempt("eve", attacker, 600).is_ok());
    }

    #[test]
    fn a_success_resets_the_pair_and_reports_its_failures() {
        let mut t = LoginThrottle::new(Limits::default());
        let a = ip("192.0.2.1");
        for i in 0..4 {
            t.attempt("dana", a, i).expect("free");
        }
        t.attempt("dana", a, 5).expect("the fifth");
        let s = t.succeeded("dana", a).expect("a summary");
        assert_eq!((s.count, s.window_start_ms), (4, 0));
        // Counting starts again: five more free attempts.
        for i in 0..5 {
            assert!(t.attempt("dana", a, 10 + i).is_ok(), "{i}");
        }
        assert!(t.attempt("dana", a, 20).is_err());
    }

    #[test]
    fn a_window_is_summarised_once_when_it_closes() {
        let limits = Limits::default();
        let mut t = LoginThrottle::new(limits);
        let a = ip("198.51.100.7");
        let (checked, refused, due) = flood(&mut t, &|_| "dana".into(), a, 0, 10, 200);
        assert!(due.is_empty());
        assert_eq!(t.take_due(limits.window_ms - 1), []);
        let due = t.take_due(limits.window_ms);
        assert_eq!(
            due,
            [Summary {
                username: "dana".into(),
                address: a,
                count: (checked + refused) as u64,
                window_start_ms: 0
            }]
        );
        assert_eq!(t.take_due(limits.window_ms * 2), []);
        assert_eq!(t.len(), (0, 0));
    }

    /// The figures docs/staff.md gives, under 100 attempts a second.
    #[test]
    fn the_documented_figures_hold() {
        let limits = Limits::default();
        let a = ip("198.51.100.7");
        let minute = 100 * 60;
        let window = 100 * 60 * 15;
        for (names, n, most) in [
            (false, minute, 10),
            (false, window, 25),
            (true, minute, 25),
            (true, window, 39),
        ] {
            let mut t = LoginThrottle::new(limits);
            let name = |i: usize| {
                if names {
                    format!("u{i}")
                } else {
                    "dana".into()
                }
            };
            let (checked, _, _) = flood(&mut t, &name, a, 0, 10, n);
            assert!(checked <= most, "{names} {n}: {checked}");
            assert!(checked + 2 >= most, "{names} {n}: {checked}");
        }
    }

    #[test]
    fn a_flood_of_100_per_second_gives_a_bounded_number_of_summaries() {
        let limits = Limits::default();
        // One address, a new user name every attempt, for 15 minutes.
        let mut t = LoginThrottle::new(limits);
        let a = ip("198.51.100.7");
        let n = 100 * 60 * 15;
        let (checked, _, mut due) = flood(&mut t, &|i| format!("u{i}"), a, 0, 10, n);
        due.extend(t.take_all());
        // 20 free, back-off 1+2+4+8+16+32 s, then one a minute: ≤ 40 a window.
        assert!(checked <= 40, "{checked}");
        assert_eq!(due.len(), checked);
        // One user name: one summary a window.
        let mut t = LoginThrottle::new(limits);
        let (_, _, mut due) = flood(&mut t, &|_| "dana".into(), a, 0, 10, n);
        due.extend(t.take_all());
        assert_eq!(due.len(), 1);
    }

    #[test]
    fn memory_is_bounded_and_evicted_failures_are_still_summarised() {
        let limits = Limits {
            max_entries: 100,
            address_free: 1_000,
            ..Limits::default()
        };
        let mut t = LoginThrottle::new(limits);
        let mut due = Vec::new();
        for i in 0..300u32 {
            let address = IpAddr::from([10, 0, (i / 256) as u8, (i % 256) as u8]);
            due.extend(
                t.attempt(&format!("u{i}"), address, i64::from(i))
                    .expect("free"),
            );
        }
        assert_eq!(t.len(), (100, 100));
        assert_eq!(due.len(), 200, "each evicted pair is summarised");
        due.extend(t.take_all());
        assert_eq!(due.iter().map(|s| s.count).sum::<u64>(), 300);
    }
}
