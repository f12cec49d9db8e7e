-- A campaign's setting: the rules its book lets a setting change, as TOML text
-- (Scratch RPS's `[rules]`: CP, maximum level, d20 method, strength base; R-SCR-9).
-- Empty: the book's own rules. Opaque to the store; other books may use it later.
ALTER TABLE campaigns ADD COLUMN settings TEXT NOT NULL DEFAULT '';
