-- Training tables: practice hands, which trainees may run too. Existing
-- tables are real ones.
ALTER TABLE card_tables ADD COLUMN training INTEGER NOT NULL DEFAULT 0 CHECK (training IN (0, 1));
