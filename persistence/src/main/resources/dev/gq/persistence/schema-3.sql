-- gq schema version 3, applied on top of version 2 in one transaction with the version bump.
-- What each GPU was doing over time (jobs, outside processes, idle, unknown), for 'gq report': one
-- row per stretch of one use, its end moved forward while it lasts. Written in batches by the
-- daemon, bounded in age and rows; not derived from the journal (the journal holds no readings).
CREATE TABLE IF NOT EXISTS gpu_spans (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL,
  gpu_index INTEGER NOT NULL,
  gpu_use TEXT NOT NULL,
  start_ms BIGINT NOT NULL,
  end_ms BIGINT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS gpu_spans_start ON gpu_spans(uuid, start_ms);
CREATE INDEX IF NOT EXISTS gpu_spans_end ON gpu_spans(end_ms);
-- What 'gq report' reads of each job, as columns: times in epoch milliseconds and the GPUs held
-- ("index=uuid", separated by the unit separator), so that a report over 100,000 jobs reads no
-- document. Filled here from the documents; written with every row from now on.
ALTER TABLE jobs ADD COLUMN submit_ms INTEGER;
ALTER TABLE jobs ADD COLUMN start_ms INTEGER;
ALTER TABLE jobs ADD COLUMN end_ms INTEGER;
ALTER TABLE jobs ADD COLUMN gpu_list TEXT;
UPDATE jobs SET
  submit_ms = CAST(round((julianday(json_extract(doc, '$.submitTime')) - 2440587.5) * 86400000.0) AS INTEGER),
  start_ms = CAST(round((julianday(json_extract(doc, '$.startTime')) - 2440587.5) * 86400000.0) AS INTEGER),
  end_ms = CAST(round((julianday(json_extract(doc, '$.endTime')) - 2440587.5) * 86400000.0) AS INTEGER),
  gpu_list = (SELECT group_concat(json_extract(g.value, '$.index') || '=' || json_extract(g.value, '$.uuid'), char(31))
    FROM json_each(doc, '$.gpus') g)
  WHERE json_valid(doc);
CREATE INDEX IF NOT EXISTS jobs_end_ms ON jobs(end_ms);
