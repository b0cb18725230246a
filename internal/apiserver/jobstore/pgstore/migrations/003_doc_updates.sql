-- Documentation updates. The record is the whole update as JSON, written
-- once; ends_at lets the per-project limit count the running ones, and the
-- one that ends last (each ends after the one before it) is what the next
-- update starts behind.

CREATE TABLE doc_updates (
    id         text PRIMARY KEY,
    org_id     text NOT NULL,
    project_id text NOT NULL,
    created_at timestamptz NOT NULL,
    ends_at    timestamptz NOT NULL,
    record     jsonb NOT NULL
);
CREATE INDEX doc_updates_project_end ON doc_updates (project_id, ends_at);
CREATE INDEX doc_updates_org ON doc_updates (org_id);
