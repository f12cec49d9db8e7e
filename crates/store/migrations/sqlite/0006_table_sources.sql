-- What a campaign table was opened from (issue 27, item 8): its table file's text and
-- the uploaded sheets (the GM's NPCs) as JSON {"table": TEXT, "files": {NAME: TEXT}},
-- so the campaign page can offer the table again. NULL for tables opened before this
-- migration and for tables not opened from a campaign.
ALTER TABLE tables ADD COLUMN source TEXT;
