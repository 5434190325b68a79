//! What a backup file is and whether this binary can restore it, decided
//! from its first bytes and its migration rows alone: `pitbook restore`
//! refuses a file that is not a backup, or one from a newer or unknown
//! schema, before it changes anything, and these rules are tested here
//! without a database.

use std::fmt;

/// What a file's first bytes say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// An SQLite database ("SQLite format 3\0").
    Sqlite,
    /// A `pg_dump --format=custom` archive ("PGDMP").
    PgDump,
    Other,
}

impl FileKind {
    pub fn of(header: &[u8]) -> FileKind {
        if header.starts_with(b"SQLite format 3\0") {
            FileKind::Sqlite
        } else if header.starts_with(b"PGDMP") {
            FileKind::PgDump
        } else {
            FileKind::Other
        }
    }
}

/// One row of a database's migrations table (`_sqlx_migrations`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub version: i64,
    pub checksum: Vec<u8>,
    pub success: bool,
}

/// A migration this binary carries: its version and its SQL's checksum.
#[derive(Debug, Clone, Copy)]
pub struct Known<'a> {
    pub version: i64,
    pub checksum: &'a [u8],
}

/// A backup this binary can restore: its schema version, and how many of
/// this binary's migrations it still needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schema {
    pub version: i64,
    pub pending: usize,
}

/// Why a backup's schema cannot be restored by this binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaProblem {
    /// No migration was ever applied: not a pitbook database.
    NoMigrations,
    /// A migration that failed half-way (sqlx marks it unsuccessful).
    Failed(i64),
    /// Written by a newer pitbook: this binary does not know its schema.
    Newer { version: i64, known: i64 },
    /// A version this binary never had, below its newest.
    Unknown(i64),
    /// A version this binary has, applied from different SQL.
    Modified(i64),
}

impl fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaProblem::NoMigrations => write!(f, "it has no pitbook migrations"),
            SchemaProblem::Failed(v) => write!(f, "its migration {v} failed half-way"),
            SchemaProblem::Newer { version, known } => write!(
                f,
                "its schema version {version} is newer than this pitbook's ({known}): \
                 restore it with the pitbook that wrote it, or a later one"
            ),
            SchemaProblem::Unknown(v) => {
                write!(f, "its migration {v} is not one of this pitbook's")
            }
            SchemaProblem::Modified(v) => write!(
                f,
                "its migration {v} differs from this pitbook's (a different build's schema)"
            ),
        }
    }
}

/// Whether a database with `applied` migrations can be brought to this
/// binary's schema by running the `known` ones it lacks.
pub fn check_schema(applied: &[Applied], known: &[Known<'_>]) -> Result<Schema, SchemaProblem> {
    let newest_known = known.iter().map(|k| k.version).max().unwrap_or(0);
    let version = applied
        .iter()
        .map(|a| a.version)
        .max()
        .ok_or(SchemaProblem::NoMigrations)?;
    if version > newest_known {
        return Err(SchemaProblem::Newer {
            version,
            known: newest_known,
        });
    }
    for a in applied {
        if !a.success {
            return Err(SchemaProblem::Failed(a.version));
        }
        match known.iter().find(|k| k.version == a.version) {
            None => return Err(SchemaProblem::Unknown(a.version)),
            Some(k) if k.checksum != a.checksum.as_slice() => {
                return Err(SchemaProblem::Modified(a.version));
            }
            Some(_) => {}
        }
    }
    let pending = known
        .iter()
        .filter(|k| !applied.iter().any(|a| a.version == k.version))
        .count();
    Ok(Schema { version, pending })
}

/// The migrations table's rows from `pg_restore --data-only --table
/// _sqlx_migrations --file -`: the `COPY … FROM stdin;` block in COPY's
/// text format (tab-separated, `\\x…` for bytea, `t`/`f`). None when the
/// archive holds no such block.
pub fn migrations_from_copy(script: &str) -> Option<Result<Vec<Applied>, String>> {
    let mut lines = script.lines();
    let header = lines.find(|l| {
        l.starts_with("COPY ") && l.contains("_sqlx_migrations (") && l.ends_with("FROM stdin;")
    })?;
    Some(read_copy_rows(header, lines))
}

fn read_copy_rows<'a>(
    header: &str,
    lines: impl Iterator<Item = &'a str>,
) -> Result<Vec<Applied>, String> {
    let columns: Vec<&str> = header
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(cols, _)| cols.split(',').map(str::trim).collect())
        .unwrap_or_default();
    let at = |name: &str| {
        columns
            .iter()
            .position(|c| *c == name)
            .ok_or_else(|| format!("the migrations table has no column {name}"))
    };
    let (version_at, success_at, checksum_at) = (at("version")?, at("success")?, at("checksum")?);
    let mut rows = Vec::new();
    for line in lines {
        if line == "\\." {
            return Ok(rows);
        }
        let cells: Vec<&str> = line.split('\t').collect();
        let cell = |i: usize| cells.get(i).copied().unwrap_or_default();
        let version = cell(version_at)
            .parse()
            .map_err(|_| format!("a migration version \"{}\"", cell(version_at)))?;
        let checksum = cell(checksum_at)
            .strip_prefix("\\\\x")
            .and_then(|h| hex::decode(h).ok())
            .ok_or_else(|| format!("migration {version}'s checksum"))?;
        rows.push(Applied {
            version,
            checksum,
            success: cell(success_at) == "t",
        });
    }
    Err("the migrations table's rows end early".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &[u8] = b"checksum one";
    const B: &[u8] = b"checksum two";

    fn applied(version: i64, checksum: &[u8]) -> Applied {
        Applied {
            version,
            checksum: checksum.to_vec(),
            success: true,
        }
    }

    fn known() -> [Known<'static>; 2] {
        [
            Known {
                version: 1,
                checksum: A,
            },
            Known {
                version: 2,
                checksum: B,
            },
        ]
    }

    #[test]
    fn files_are_told_apart_by_their_first_bytes() {
        assert_eq!(FileKind::of(b"SQLite format 3\0rest"), FileKind::Sqlite);
        assert_eq!(FileKind::of(b"PGDMP\x01\x0e"), FileKind::PgDump);
        assert_eq!(FileKind::of(b"SQLite format 3"), FileKind::Other);
        assert_eq!(FileKind::of(b""), FileKind::Other);
    }

    #[test]
    fn the_same_or_an_older_schema_restores_with_what_it_lacks_pending() {
        let both = [applied(1, A), applied(2, B)];
        assert_eq!(
            check_schema(&both, &known()),
            Ok(Schema {
                version: 2,
                pending: 0
            })
        );
        assert_eq!(
            check_schema(&[applied(1, A)], &known()),
            Ok(Schema {
                version: 1,
                pending: 1
            })
        );
    }

    #[test]
    fn newer_unknown_modified_failed_and_empty_schemas_are_refused() {
        let newer = [applied(1, A), applied(2, B), applied(3, A)];
        assert_eq!(
            check_schema(&newer, &known()),
            Err(SchemaProblem::Newer {
                version: 3,
                known: 2
            })
        );
        let gap = [
            Known {
                version: 1,
                checksum: A,
            },
            Known {
                version: 3,
                checksum: B,
            },
        ];
        assert_eq!(
            check_schema(&[applied(2, A)], &gap),
            Err(SchemaProblem::Unknown(2))
        );
        assert_eq!(
            check_schema(&[applied(1, B)], &known()),
            Err(SchemaProblem::Modified(1))
        );
        let failed = Applied {
            success: false,
            ..applied(1, A)
        };
        assert_eq!(
            check_schema(&[failed], &known()),
            Err(SchemaProblem::Failed(1))
        );
        assert_eq!(
            check_schema(&[], &known()),
            Err(SchemaProblem::NoMigrations)
        );
    }

    #[test]
    fn migration_rows_are_read_from_pg_restores_copy_block() {
        let script = "SET x = 1;\n\
            COPY public._sqlx_migrations (version, description, installed_on, success, checksum, execution_time) FROM stdin;\n\
            1\tmeta\t2026-11-01 10:00:00+00\tt\t\\\\x0a0b\t12\n\
            2\taudit\t2026-11-01 10:00:00+00\tf\t\\\\xff\t3\n\
            \\.\n";
        let rows = migrations_from_copy(script).unwrap().unwrap();
        assert_eq!(
            rows,
            [
                applied(1, &[0x0a, 0x0b]),
                Applied {
                    success: false,
                    ..applied(2, &[0xff])
                }
            ]
        );
        assert_eq!(migrations_from_copy("SET x = 1;\n"), None);
        let cut = "COPY public._sqlx_migrations (version, success, checksum) FROM stdin;\n1\tt\t\\\\x0a\n";
        assert!(migrations_from_copy(cut).unwrap().is_err());
    }
}
