-- Tabula's store, PostgreSQL backend. JSON is kept in `json` columns, not `jsonb`:
-- the text comes back exactly as it went in (key order, and "\u0000", which jsonb
-- refuses), as with SQLite; the store never queries inside it. The log's seq lives
-- only in `entries` (a table's seq is MAX(entries.seq), 0 when empty), so there is
-- one source of truth and the (table_id, seq) primary key is the optimistic lock that
-- keeps two servers racing on one table from both appending.

CREATE TABLE tables (
    id             TEXT    NOT NULL PRIMARY KEY,        -- 32 lowercase hex chars
    created_order  BIGINT  GENERATED ALWAYS AS IDENTITY UNIQUE, -- "newest first" order
    system         TEXT    NOT NULL,
    name           TEXT    NOT NULL,
    initial_state  JSON    NOT NULL,
    initial_roller JSON,                                -- NULL = no roller state
    roller         JSON,                                -- the current roller state
    created_ms     BIGINT  NOT NULL                     -- Unix epoch milliseconds
);

CREATE TABLE seats (
    table_id     TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,                      -- index in NewTable::seats
    seat         TEXT    NOT NULL,
    role         TEXT    NOT NULL CHECK (role IN ('gm', 'player')),
    display_name TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL,                      -- never the token itself
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX seats_by_token ON seats (table_id, token_hash);

CREATE TABLE entries (
    table_id    TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         BIGINT  NOT NULL CHECK (seq >= 1),
    seat        TEXT    NOT NULL,
    entry       JSON    NOT NULL,
    at_ms       BIGINT  NOT NULL,                       -- Unix epoch milliseconds
    command_end BOOLEAN NOT NULL,
    roller      JSON,                                   -- on command ends only
    PRIMARY KEY (table_id, seq)
);
