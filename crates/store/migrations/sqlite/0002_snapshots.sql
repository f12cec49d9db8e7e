-- A table's newest snapshot: its state right after entry `seq`, written in the same
-- transaction as that entry, so a load need not replay entries 1..=seq. A cache of
-- the log: replaying the log up to `seq` gives `state`.
CREATE TABLE snapshots (
    table_id TEXT    NOT NULL PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    state    TEXT    NOT NULL,                          -- JSON
    roller   TEXT                                       -- JSON, NULL = no roller state
) STRICT;
