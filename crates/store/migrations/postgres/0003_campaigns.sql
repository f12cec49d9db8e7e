-- Campaigns: one rule system, its seats (token hashes only, as at tables), its
-- characters, and each character's append-only history. A character's seq, current
-- sheet and last change live only in `character_events` (its last row), so there is
-- one source of truth and (character_id, seq) is the optimistic lock, as for a
-- table's log. Names are unique in a campaign by their keys, computed by the store:
-- `name_key` is the name as tabula_core::names::normalize gives it, `file_key` the
-- file name in lower case.

CREATE TABLE campaigns (
    id            TEXT    NOT NULL PRIMARY KEY,         -- 32 lowercase hex chars
    created_order BIGINT  GENERATED ALWAYS AS IDENTITY UNIQUE, -- "newest first" order
    system        TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    created_ms    BIGINT  NOT NULL                      -- Unix epoch milliseconds
);

CREATE TABLE campaign_seats (
    campaign_id  TEXT    NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,                      -- index in NewCampaign::seats
    seat         TEXT    NOT NULL,
    role         TEXT    NOT NULL CHECK (role IN ('gm', 'player')),
    display_name TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL,                      -- never the token itself
    PRIMARY KEY (campaign_id, seat)
);

CREATE INDEX campaign_seats_by_token ON campaign_seats (campaign_id, token_hash);

CREATE TABLE characters (
    id            TEXT    NOT NULL PRIMARY KEY,         -- 32 lowercase hex chars
    campaign_id   TEXT    NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    created_order BIGINT  GENERATED ALWAYS AS IDENTITY UNIQUE, -- the order added
    name          TEXT    NOT NULL,
    name_key      TEXT    NOT NULL,
    file          TEXT    NOT NULL,
    file_key      TEXT    NOT NULL,
    owner         TEXT    NOT NULL,
    created_ms    BIGINT  NOT NULL,                     -- Unix epoch milliseconds
    UNIQUE (campaign_id, name_key),
    UNIQUE (campaign_id, file_key),
    FOREIGN KEY (campaign_id, owner) REFERENCES campaign_seats (campaign_id, seat)
);

CREATE TABLE character_events (
    character_id TEXT    NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    seq          BIGINT  NOT NULL CHECK (seq >= 1),
    seat         TEXT    NOT NULL,
    kind         TEXT    NOT NULL,
    entry        JSON    NOT NULL,
    sheet        TEXT    NOT NULL,                      -- the sheet after the event
    at_ms        BIGINT  NOT NULL,                      -- Unix epoch milliseconds
    PRIMARY KEY (character_id, seq)
);

-- A table may belong to a campaign, and is ended (its lasting changes written back
-- to the characters, once) at `ended_ms`.
ALTER TABLE tables
    ADD COLUMN campaign_id TEXT REFERENCES campaigns (id),
    ADD COLUMN ended_ms BIGINT;                         -- NULL = not ended

CREATE INDEX tables_by_campaign ON tables (campaign_id);
