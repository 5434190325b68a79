-- Training (issue 18): runs of drills and their attempts, the pass marks
-- and the sign-offs. Each row is the fold of its audit records
-- (drill_run_started, drill_issued, drill_answered, pass_mark_set,
-- trainee_signed_off), written with them in one transaction and re-derived
-- by `audit verify` (src/store/verify/training.rs), which finds those
-- records through audit_log_not_hands (0011): none belongs to a hand.
CREATE TABLE drill_runs (
    id          TEXT PRIMARY KEY,
    trainee     TEXT NOT NULL,
    mode        TEXT NOT NULL CHECK (mode IN ('practice', 'test', 'speed')),
    questions   BIGINT,
    kind        TEXT NOT NULL,
    level       BIGINT NOT NULL,
    started_at  TEXT NOT NULL,
    started_seq BIGINT NOT NULL
);
CREATE INDEX drill_runs_by_trainee ON drill_runs (trainee, started_seq);

-- A drill of a run; its attempt (answered_*) once answered. `answer` is
-- the answer as given (JSON), `correct` whether it was graded right.
CREATE TABLE drills (
    id           TEXT PRIMARY KEY,
    run_id       TEXT NOT NULL REFERENCES drill_runs (id),
    position     BIGINT NOT NULL,
    trainee      TEXT NOT NULL,
    kind         TEXT NOT NULL,
    level        BIGINT NOT NULL,
    seed         BIGINT NOT NULL,
    issued_at    TEXT NOT NULL,
    issued_seq   BIGINT NOT NULL,
    answer       TEXT,
    correct      BOOLEAN,
    elapsed_ms   BIGINT,
    answered_at  TEXT,
    answered_seq BIGINT,
    UNIQUE (run_id, position)
);
-- A trainee's attempts in order: their progress.
CREATE INDEX drills_attempts ON drills (trainee, answered_seq) WHERE answered_seq IS NOT NULL;

-- The training manager's pass mark per kind (absent: the default).
CREATE TABLE training_pass_marks (
    kind            TEXT PRIMARY KEY,
    window_attempts BIGINT NOT NULL,
    accuracy_pct    BIGINT NOT NULL,
    median_seconds  BIGINT NOT NULL,
    level           BIGINT NOT NULL,
    required        BOOLEAN NOT NULL,
    set_by          TEXT NOT NULL,
    set_at          TEXT NOT NULL,
    set_seq         BIGINT NOT NULL
);

CREATE TABLE training_sign_offs (
    trainee    TEXT PRIMARY KEY,
    signed_by  TEXT NOT NULL,
    signed_at  TEXT NOT NULL,
    signed_seq BIGINT NOT NULL,
    promoted   BOOLEAN NOT NULL
);
