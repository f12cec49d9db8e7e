-- When each table was last touched (issue 28: tables nobody touched in N days
-- expire): created, a command appended, or its encounter ended. Kept on the table's
-- row by the statements that already write it, so a command costs no extra
-- statement; indexed for the expiry's range scan. Older tables start at their last
-- entry (or their creation, or their ending, whichever is latest).
ALTER TABLE tables ADD COLUMN touched_ms INTEGER NOT NULL DEFAULT 0;

UPDATE tables SET touched_ms = MAX(
    COALESCE((SELECT MAX(e.at_ms) FROM entries e WHERE e.table_id = tables.id), created_ms),
    created_ms,
    COALESCE(ended_ms, 0)
);

CREATE INDEX tables_by_touched ON tables (touched_ms);
