//! Staff accounts: roles, what each role may do, and the rules for user
//! names and passwords. Pure: the store and the web shell call these.

pub mod login_throttle;

use std::fmt;
use std::str::FromStr;

/// A staff member's role. One per account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Admin,
    Supervisor,
    Dealer,
    Trainee,
    Auditor,
}

impl Role {
    pub const ALL: [Role; 5] = [
        Role::Admin,
        Role::Supervisor,
        Role::Dealer,
        Role::Trainee,
        Role::Auditor,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Supervisor => "supervisor",
            Role::Dealer => "dealer",
            Role::Trainee => "trainee",
            Role::Auditor => "auditor",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(s: &str) -> Result<Role, String> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| {
                format!("\"{s}\" is not a role (admin, supervisor, dealer, trainee, auditor)")
            })
    }
}

/// Something a staff member may try to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Add, disable or change the role of an account.
    ManageUsers,
    /// Create, change or retire a table.
    ManageTables,
    /// Assign dealers to tables.
    AssignDealers,
    /// Correct or void a closed hand (with a reason).
    CorrectHands,
    /// Run hands on a real table: `assigned` says whether the staff member
    /// is assigned to that table.
    ActOnTable { assigned: bool },
    /// Run hands in training mode (nothing counts).
    ActInTraining,
    /// See tables, hands and the audit log.
    Read,
    /// Run `audit verify` from the chain page (it reads the whole log).
    VerifyChain,
    /// Search the hand histories and read a player's history (`/history`):
    /// every player's money across hands, which dealers do not need.
    ReviewHistory,
    /// Add a note to a hand (a dispute, what surveillance showed), in any
    /// phase. Not a dealer's, even on their own hand: a note is the floor's
    /// word on the hand, recorded by someone who did not deal it.
    AddNotes,
    /// Answer training drills (practice, tests, speed drills): anyone who
    /// deals or may deal.
    Drill,
    /// See every trainee's progress and the pass marks.
    ReviewTraining,
    /// Set the pass marks (the training manager's word).
    SetPassMarks,
    /// Sign a trainee off (and promote them to dealer).
    SignOffTrainees,
    /// Open and close shifts, record dealer changes, sign shift reports,
    /// and say whether hands need an open shift.
    ManageShifts,
    /// Read shift reports (every table's drop and every player's results).
    ReadShiftReports,
}

impl Action {
    /// Running hands at a table: practice at a training table, else the
    /// real thing (a dealer only where assigned).
    pub fn run_hands(training: bool, assigned: bool) -> Action {
        if training {
            Action::ActInTraining
        } else {
            Action::ActOnTable { assigned }
        }
    }
}

/// Whether `role` may do `action`. The matrix is in docs/staff.md.
pub fn allows(role: Role, action: Action) -> bool {
    use Action::*;
    match (role, action) {
        (_, Read) => true,
        (Role::Admin, ManageUsers | ManageTables | AssignDealers | CorrectHands) => true,
        (Role::Admin | Role::Supervisor, ActOnTable { .. } | ActInTraining) => true,
        (Role::Supervisor, ManageTables | AssignDealers | CorrectHands) => true,
        (Role::Dealer, ActOnTable { assigned }) => assigned,
        (Role::Dealer | Role::Trainee, ActInTraining) => true,
        (
            Role::Admin | Role::Supervisor | Role::Auditor,
            VerifyChain | ReviewHistory | AddNotes | ReviewTraining,
        ) => true,
        (Role::Admin | Role::Supervisor | Role::Dealer | Role::Trainee, Drill) => true,
        (Role::Admin | Role::Supervisor, SetPassMarks | SignOffTrainees | ManageShifts) => true,
        (Role::Admin | Role::Supervisor | Role::Auditor, ReadShiftReports) => true,
        _ => false,
    }
}

pub const USERNAME_MAX: usize = 32;
pub const PASSWORD_MIN: usize = 12;
pub const PASSWORD_MAX: usize = 128;

/// A user name: 1..32 of `a-z 0-9 . _ -`.
pub fn check_username(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a user name is required".into());
    }
    if name.chars().count() > USERNAME_MAX {
        return Err(format!("at most {USERNAME_MAX} characters"));
    }
    match name
        .chars()
        .find(|c| !matches!(c, 'a'..='z' | '0'..='9' | '.' | '_' | '-'))
    {
        Some(c) => Err(format!(
            "\"{c}\" is not allowed: use a-z, 0-9, \".\", \"_\" and \"-\""
        )),
        None => Ok(()),
    }
}

/// A password: 12..128 characters.
pub fn check_password(password: &str) -> Result<(), String> {
    let n = password.chars().count();
    if n < PASSWORD_MIN {
        Err(format!(
            "at least {PASSWORD_MIN} characters (this one has {n})"
        ))
    } else if n > PASSWORD_MAX {
        Err(format!("at most {PASSWORD_MAX} characters"))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Action::*;
    use super::Role::*;
    use super::*;

    #[test]
    fn roles_parse_and_display() {
        for role in Role::ALL {
            assert_eq!(role.to_string().parse::<Role>(), Ok(role));
        }
        assert!("Admin".parse::<Role>().is_err());
        assert!("root".parse::<Role>().unwrap_err().contains("not a role"));
    }

    #[test]
    fn permission_matrix() {
        let on_mine = ActOnTable { assigned: true };
        let on_other = ActOnTable { assigned: false };
        // action, then admin, supervisor, dealer, trainee, auditor
        let matrix = [
            (ManageUsers, [true, false, false, false, false]),
            (ManageTables, [true, true, false, false, false]),
            (AssignDealers, [true, true, false, false, false]),
            (CorrectHands, [true, true, false, false, false]),
            (on_mine, [true, true, true, false, false]),
            (on_other, [true, true, false, false, false]),
            (ActInTraining, [true, true, true, true, false]),
            (Read, [true, true, true, true, true]),
            (VerifyChain, [true, true, false, false, true]),
            (ReviewHistory, [true, true, false, false, true]),
            (AddNotes, [true, true, false, false, true]),
            (Drill, [true, true, true, true, false]),
            (ReviewTraining, [true, true, false, false, true]),
            (SetPassMarks, [true, true, false, false, false]),
            (SignOffTrainees, [true, true, false, false, false]),
            (ManageShifts, [true, true, false, false, false]),
            (ReadShiftReports, [true, true, false, false, true]),
        ];
        for (action, expected) in matrix {
            for (role, want) in [Admin, Supervisor, Dealer, Trainee, Auditor]
                .into_iter()
                .zip(expected)
            {
                assert_eq!(allows(role, action), want, "{role} {action:?}");
            }
        }
    }

    #[test]
    fn usernames() {
        for ok in ["a", "dana", "j.doe_2-x", &"x".repeat(32)] {
            assert_eq!(check_username(ok), Ok(()), "{ok}");
        }
        for (bad, why) in [
            ("", "required"),
            (&"x".repeat(33), "at most 32"),
            ("Dana", "\"D\" is not allowed"),
            ("dana smith", "\" \" is not allowed"),
            ("dañа", "not allowed"),
        ] {
            assert!(check_username(bad).unwrap_err().contains(why), "{bad}");
        }
    }

    #[test]
    fn passwords() {
        assert!(check_password("short").unwrap_err().contains("at least 12"));
        assert!(check_password(&"p".repeat(11)).is_err());
        assert_eq!(check_password(&"p".repeat(12)), Ok(()));
        assert_eq!(check_password(&"é".repeat(128)), Ok(()));
        assert!(
            check_password(&"p".repeat(129))
                .unwrap_err()
                .contains("at most 128")
        );
    }
}
