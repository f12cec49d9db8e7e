-- Each log entry described once per seat when it is appended (issue 28): the seat's
-- log line as JSON, so reading a log never replays the rules. A seat that may not see
-- an entry has no line for it. `tables.lines_through` is the seq up to which every
-- entry's lines are stored; tables whose entries predate this migration start at 0
-- and are described once when a server loads them.
CREATE TABLE log_lines (
    table_id TEXT   NOT NULL,
    seat     TEXT   NOT NULL,
    seq      BIGINT NOT NULL CHECK (seq >= 1),
    line     JSON   NOT NULL,
    PRIMARY KEY (table_id, seat, seq),
    FOREIGN KEY (table_id, seq) REFERENCES entries (table_id, seq) ON DELETE CASCADE
);

CREATE INDEX log_lines_by_entry ON log_lines (table_id, seq);

ALTER TABLE tables ADD COLUMN lines_through BIGINT NOT NULL DEFAULT 0;
