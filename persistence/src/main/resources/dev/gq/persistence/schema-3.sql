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
