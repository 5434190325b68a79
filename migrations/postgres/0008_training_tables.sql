-- Training tables: practice hands, which trainees may run too. Existing
-- tables are real ones.
ALTER TABLE card_tables ADD COLUMN training BOOLEAN NOT NULL DEFAULT FALSE;
