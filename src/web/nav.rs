//! The navigation bar of every signed-in page: the sections a role may use
//! (by the same permissions the pages check), the one the page is in
//! marked current.

use crate::domain::staff::{Action, Role, allows};

/// A section's link in the bar.
#[derive(Debug, Clone)]
pub struct NavLink {
    pub label: &'static str,
    pub href: &'static str,
    /// What the section is for, in a line (the home page says it).
    pub about: &'static str,
    /// Its name in ids: `tables` (the home page's `#tables-link`).
    pub key: &'static str,
    /// The page asked for is in this section.
    pub current: bool,
}

/// A section: its label, its page, the paths it holds and what a role
/// must be allowed to see it in the bar.
struct Section {
    label: &'static str,
    href: &'static str,
    about: &'static str,
    key: &'static str,
    paths: &'static [&'static str],
    needs: &'static [Action],
}

const TABLE: Action = Action::ActOnTable { assigned: true };

const SECTIONS: [Section; 10] = [
    Section {
        label: "Floor",
        about: "Every table at a glance: hands in progress, the box, the rotation clocks, alerts.",
        key: "floor",
        href: "/floor",
        paths: &["/floor"],
        needs: &[Action::ReadShiftReports],
    },
    Section {
        label: "Tables",
        about: "Run hands at your tables: the PD, wagers, dice, results, settlement.",
        key: "tables",
        href: "/tables",
        paths: &["/tables", "/hands"],
        needs: &[TABLE, Action::ActInTraining],
    },
    Section {
        label: "History",
        about: "Find any hand by table, time, dealer, player or amount; a player's hands.",
        key: "history",
        href: "/history",
        paths: &["/history"],
        needs: &[Action::ReviewHistory],
    },
    Section {
        label: "Shifts",
        about: "Open and close shifts, dealer changes, signed shift reports.",
        key: "shifts",
        href: "/shifts",
        paths: &["/shifts"],
        needs: &[Action::ReadShiftReports],
    },
    Section {
        label: "Training",
        about: "Drills, tests and progress; pass marks and sign-off.",
        key: "training",
        href: "/training",
        paths: &["/training"],
        // An auditor reviews trainees from their progress pages, not
        // the drills' start page.
        needs: &[Action::Drill],
    },
    Section {
        label: "Tripoley",
        about: "Keep a Tripoley game: each round's steps and payouts.",
        key: "tripoley",
        href: "/tripoley",
        paths: &["/tripoley"],
        needs: &[TABLE],
    },
    Section {
        label: "Dice",
        about: "Score 10,000 and poker dice games.",
        key: "dice",
        href: "/dice",
        paths: &["/dice"],
        needs: &[TABLE],
    },
    Section {
        label: "House ways",
        about: "Every house way's chart; load the room's own.",
        key: "house-ways",
        href: "/tools/house-ways",
        paths: &["/tools"],
        needs: &[Action::ManageTables],
    },
    Section {
        label: "Chain",
        about: "The audit chain's health; verify it now.",
        key: "chain",
        href: "/chain",
        paths: &["/chain"],
        needs: &[Action::VerifyChain],
    },
    Section {
        label: "Staff",
        about: "Staff accounts, roles and API tokens.",
        key: "staff",
        href: "/users",
        paths: &["/users"],
        needs: &[Action::ManageUsers],
    },
];

/// The bar for `role` on the page at `path`.
pub fn links(role: Role, path: &str) -> Vec<NavLink> {
    let within = |prefix: &str| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    SECTIONS
        .iter()
        .filter(|s| s.needs.iter().any(|a| allows(role, *a)))
        .map(|s| NavLink {
            label: s.label,
            href: s.href,
            about: s.about,
            key: s.key,
            current: s.paths.iter().any(|p| within(p)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(role: Role) -> Vec<&'static str> {
        links(role, "/").iter().map(|l| l.label).collect()
    }

    #[test]
    fn each_role_sees_the_sections_it_works_in() {
        assert_eq!(
            labels(Role::Dealer),
            ["Tables", "Training", "Tripoley", "Dice"]
        );
        assert_eq!(labels(Role::Trainee), ["Tables", "Training"]);
        assert_eq!(
            labels(Role::Auditor),
            ["Floor", "History", "Shifts", "Chain"]
        );
        let supervisor = labels(Role::Supervisor);
        assert_eq!(supervisor.len(), 9);
        assert_eq!(
            supervisor[0], "Floor",
            "the floor first: a supervisor's start"
        );
        assert!(!supervisor.contains(&"Staff"));
        assert_eq!(labels(Role::Admin).len(), 10);
    }

    #[test]
    fn the_page_asked_for_marks_its_section() {
        let current = |path: &str| -> Vec<&str> {
            let all = links(Role::Admin, path);
            all.iter().filter(|l| l.current).map(|l| l.label).collect()
        };
        assert_eq!(current("/hands/01a2"), ["Tables"]);
        assert_eq!(current("/tables"), ["Tables"]);
        assert_eq!(current("/history/player"), ["History"]);
        assert_eq!(current("/tools/house-way"), ["House ways"]);
        assert_eq!(current("/users/dana/tokens"), ["Staff"]);
        assert_eq!(current("/floor"), ["Floor"]);
        assert!(current("/").is_empty());
        assert!(current("/tablesX").is_empty());
    }
}
