-- A partial player name's totals on PostgreSQL (issue 17,
-- store/history/totals.rs, BENCHMARKS.md "Hand search"): a narrow index of
-- what those totals read from each matching name's people rows — the
-- hand's money and `keys_before` — so the ~240,000 rows of a name matching
-- a quarter of a million hands are read from a fifth of the bytes of
-- `hand_people_by_name` (which carries every criterion a name can be
-- combined with). An index, not a projection: the rows are `hand_people`'s,
-- which `audit verify` checks.
CREATE INDEX hand_people_name_sums ON hand_people (name_key)
    INCLUDE (hand_wagered_e4, hand_collection_e4, hand_pd_net_e4, keys_before);
