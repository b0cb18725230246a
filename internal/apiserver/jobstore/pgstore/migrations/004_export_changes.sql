-- Every change to an export job, whoever makes it (a replica of any
-- version, an operator's SQL), notifies docsadmin_export_changes when its
-- transaction commits: with the job's id, or with an empty payload for a
-- TRUNCATE (every job). Replicas keep the records they read in memory and
-- drop one when told it changed (postgres_memo.go), so a status poll
-- needs no round trip while a job stands still.

CREATE FUNCTION docsadmin_export_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        PERFORM pg_notify('docsadmin_export_changes', '');
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('docsadmin_export_changes', OLD.job_id);
    ELSE
        PERFORM pg_notify('docsadmin_export_changes', NEW.job_id);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER export_jobs_changed
    AFTER INSERT OR UPDATE OR DELETE ON export_jobs
    FOR EACH ROW EXECUTE FUNCTION docsadmin_export_changed();

CREATE TRIGGER export_jobs_truncated
    AFTER TRUNCATE ON export_jobs
    FOR EACH STATEMENT EXECUTE FUNCTION docsadmin_export_changed();
