-- gq schema version 2, applied on top of version 1 in one transaction with the version bump.
-- Retry lineage as a column, for counting a group's latest attempts without reading documents.
ALTER TABLE jobs ADD COLUMN retry_of INTEGER;
UPDATE jobs SET retry_of = json_extract(doc, '$.retryOf');
CREATE INDEX IF NOT EXISTS jobs_retry_of ON jobs(retry_of, id);
-- A job submitted again under the same key replaces the earlier one in the counts.
CREATE INDEX IF NOT EXISTS jobs_key ON jobs(job_key, id);
-- 'gq groups' counts from this index alone (a covering index: the rows are never read).
CREATE INDEX IF NOT EXISTS jobs_group_state ON jobs(group_name, state, retry_of, job_key);
-- 'gq clean' selects finished jobs by the time they ended.
CREATE INDEX IF NOT EXISTS jobs_end_time ON jobs(end_time);
-- Jobs deleted from the history ('gq rm', 'gq clean'). Their events stay in the journal; a late
-- event for one of them is skipped instead of stopping the read side.
CREATE TABLE IF NOT EXISTS deleted_jobs (
  id INTEGER PRIMARY KEY
);
