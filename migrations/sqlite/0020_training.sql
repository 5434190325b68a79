-- Training (issue 18): runs of drills and their attempts, the pass marks
-- and the sign-offs. Each row is the fold of its audit records
-- (drill_run_started, drill_issued, drill_answered, pass_mark_set,
-- trainee_signed_off), written with them in one transaction and re-derived
-- by `audit verify` (src/store/verify/training.rs), which finds those
-- records through audit_log_not_hands (0011): none belongs to a hand.
CREATE TABLE drill_runs (
    id          TEXT PRIMARY KEY NOT NULL,
    trainee     TEXT NOT NULL,
    mode        TEXT NOT NULL CHECK (mode IN ('practice', 'test', 'speed')),
    questions   INTEGER,
    kind        TEXT NOT NULL,
    level       INTEGER NOT NULL,
    started_at  TEXT NOT NULL,
    started_seq INTEGER NOT NULL
) STRICT;
CREATE INDEX drill_runs_by_trainee ON drill_runs (trainee, started_seq);

-- A drill of a run; its attempt (answered_*) once answered. `answer` is
-- the answer as given (JSON), `correct` whether it was graded right.
CREATE TABLE drills (
    id           TEXT PRIMARY KEY NOT NULL,
    run_id       TEXT NOT NULL REFERENCES drill_runs (id),
    position     INTEGER NOT NULL,
    trainee      TEXT NOT NULL,
    kind         TEXT NOT NULL,
    level        INTEGER NOT NULL,
    seed         INTEGER NOT NULL,
    issued_at    TEXT NOT NULL,
    issued_seq   INTEGER NOT NULL,
    answer       TEXT,
    correct      INTEGER CHECK (correct IN (0, 1)),
    elapsed_ms   INTEGER,
    answered_at  TEXT,
    answered_seq INTEGER,
    UNIQUE (run_id, position)
) STRICT;
-- A trainee's attempts in order: their progress.
CREATE INDEX drills_attempts ON drills (trainee, answered_seq) WHERE answered_seq IS NOT NULL;

-- The training manager's pass mark per kind (absent: the default).
CREATE TABLE training_pass_marks (
    kind            TEXT PRIMARY KEY NOT NULL,
    window_attempts INTEGER NOT NULL,
    accuracy_pct    INTEGER NOT NULL,
    median_seconds  INTEGER NOT NULL,
    level           INTEGER NOT NULL,
    required        INTEGER NOT NULL CHECK (required IN (0, 1)),
    set_by          TEXT NOT NULL,
    set_at          TEXT NOT NULL,
    set_seq         INTEGER NOT NULL
) STRICT;

CREATE TABLE training_sign_offs (
    trainee    TEXT PRIMARY KEY NOT NULL,
    signed_by  TEXT NOT NULL,
    signed_at  TEXT NOT NULL,
    signed_seq INTEGER NOT NULL,
    promoted   INTEGER NOT NULL CHECK (promoted IN (0, 1))
) STRICT;
