-- The reference server's state for replicas sharing one database. Each job
-- is kept whole as JSON (the record the embedded store keeps too); the
-- columns beside it are what queries filter, order and sum on, and are
-- written from the record on every change.

CREATE TABLE export_jobs (
    job_id       text PRIMARY KEY,
    org_id       text NOT NULL,
    status       text NOT NULL,
    created_at   timestamptz NOT NULL,
    attempts     integer NOT NULL DEFAULT 0,
    owner        text NOT NULL DEFAULT '',
    lease_until  timestamptz,
    stored_bytes bigint NOT NULL DEFAULT 0,
    record       jsonb NOT NULL
);
CREATE INDEX export_jobs_org ON export_jobs (org_id);
-- Claims look only at jobs that are waiting or running, oldest first.
CREATE INDEX export_jobs_claim ON export_jobs (created_at) WHERE status IN ('queued', 'running');

CREATE TABLE export_idempotency (
    org_id       text NOT NULL,
    key          text NOT NULL,
    request_hash text NOT NULL,
    job_id       text NOT NULL,
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (org_id, key)
);
CREATE INDEX export_idempotency_created ON export_idempotency (created_at);

CREATE TABLE agent_jobs (
    id         text PRIMARY KEY,
    project_id text NOT NULL,
    created_at timestamptz NOT NULL,
    record     jsonb NOT NULL
);
CREATE INDEX agent_jobs_project_time ON agent_jobs (project_id, created_at);

-- Counters such as a project's last pull request number.
CREATE TABLE counters (
    name  text PRIMARY KEY,
    value bigint NOT NULL
);
