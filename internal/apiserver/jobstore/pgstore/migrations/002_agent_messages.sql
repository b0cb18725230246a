-- Follow-up messages of agent jobs. The messages themselves live in the
-- job's record; a row here per message lets the per-project hourly limit
-- count them beside the jobs with one indexed query, and goes with its job.

CREATE TABLE agent_messages (
    job_id     text NOT NULL REFERENCES agent_jobs (id) ON DELETE CASCADE,
    seq        integer NOT NULL,
    project_id text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (job_id, seq)
);
CREATE INDEX agent_messages_project_time ON agent_messages (project_id, created_at);
