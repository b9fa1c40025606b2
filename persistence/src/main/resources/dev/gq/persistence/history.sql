-- The history's tables as the schema scripts leave them at the current version: what the daemon
-- creates again when the history was dropped, before rebuilding it from the journal. A schema
-- script that changes these tables changes this file too (HistoryTablesShapeTest compares them).
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY,
  state TEXT NOT NULL,
  group_name TEXT,
  job_key TEXT,
  end_time TEXT,
  doc TEXT NOT NULL,
  retry_of INTEGER,
  submit_ms INTEGER,
  start_ms INTEGER,
  end_ms INTEGER,
  gpu_list TEXT,
  share_mib INTEGER,
  share_per_gpu INTEGER
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, id);
CREATE INDEX IF NOT EXISTS jobs_group ON jobs(group_name, id);
CREATE INDEX IF NOT EXISTS jobs_retry_of ON jobs(retry_of, id);
CREATE INDEX IF NOT EXISTS jobs_key ON jobs(job_key, id);
CREATE INDEX IF NOT EXISTS jobs_group_state ON jobs(group_name, state, retry_of, job_key);
CREATE INDEX IF NOT EXISTS jobs_end_time ON jobs(end_time);
CREATE INDEX IF NOT EXISTS jobs_end_ms ON jobs(end_ms);
CREATE TABLE IF NOT EXISTS read_offset (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS deleted_jobs (
  id INTEGER PRIMARY KEY
);
