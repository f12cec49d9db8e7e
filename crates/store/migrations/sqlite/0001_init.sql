-- Tabula's store, SQLite backend. JSON is kept as TEXT (compact serde_json output);
-- the log's seq lives only in `entries` (a table's seq is MAX(entries.seq), 0 when
-- empty), so there is one source of truth and (table_id, seq) is the optimistic lock.

CREATE TABLE tables (
    id             TEXT    NOT NULL PRIMARY KEY,        -- 32 lowercase hex chars
    created_order  INTEGER NOT NULL UNIQUE,             -- 1, 2, 3...: "newest first" order
    system         TEXT    NOT NULL,
    name           TEXT    NOT NULL,
    initial_state  TEXT    NOT NULL,                    -- JSON
    initial_roller TEXT,                                -- JSON, NULL = no roller state
    roller         TEXT,                                -- JSON, the current roller state
    created_ms     INTEGER NOT NULL                     -- Unix epoch milliseconds
) STRICT;

CREATE TABLE seats (
    table_id     TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,                      -- index in NewTable::seats
    seat         TEXT    NOT NULL,
    role         TEXT    NOT NULL CHECK (role IN ('gm', 'player')),
    display_name TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL,                      -- never the token itself
    PRIMARY KEY (table_id, seat)
) STRICT;

CREATE INDEX seats_by_token ON seats (table_id, token_hash);

CREATE TABLE entries (
    table_id    TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    seat        TEXT    NOT NULL,
    entry       TEXT    NOT NULL,                       -- JSON
    at_ms       INTEGER NOT NULL,                       -- Unix epoch milliseconds
    command_end INTEGER NOT NULL CHECK (command_end IN (0, 1)),
    roller      TEXT,                                   -- JSON, on command ends only
    PRIMARY KEY (table_id, seq)
) STRICT;
