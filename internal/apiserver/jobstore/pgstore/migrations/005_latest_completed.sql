-- A new export copies the unchanged entries of the archive of its
-- deployment's (organization and domain) latest completed export. Finding
-- that one listed every job of the store on each start; the columns and
-- partial index below make it one indexed query
-- (pgExports.LatestCompletedExport).
--
-- The columns are generated from the record, so every writer (replicas of
-- any version, an operator's SQL) keeps them right without knowing of
-- them. A cast of text to timestamptz is only STABLE, since a text
-- without an offset is read in the session's TimeZone; records hold
-- Go's RFC 3339 times, which always carry one ("Z" or ±hh:mm), so the
-- conversion below cannot depend on the session, and is declared
-- IMMUTABLE as a generated column requires.

CREATE FUNCTION docsadmin_rfc3339(t text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN t::timestamptz;

ALTER TABLE export_jobs
    ADD COLUMN domain text GENERATED ALWAYS AS (record->>'domain') STORED,
    ADD COLUMN updated_at timestamptz GENERATED ALWAYS AS (docsadmin_rfc3339(record->>'updatedAt')) STORED;

CREATE INDEX export_jobs_latest_completed ON export_jobs (org_id, domain, updated_at DESC)
    WHERE status = 'completed';
