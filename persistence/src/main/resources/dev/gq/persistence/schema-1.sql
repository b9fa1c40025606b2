-- gq schema version 1. The journal and snapshot tables are those pekko-persistence-jdbc reads and
-- writes (its non-legacy schema), adapted to SQLite: only INTEGER PRIMARY KEY auto-increments.
CREATE TABLE IF NOT EXISTS event_journal (
  ordering INTEGER PRIMARY KEY AUTOINCREMENT,
  deleted BOOLEAN DEFAULT FALSE NOT NULL,
  persistence_id TEXT NOT NULL,
  sequence_number BIGINT NOT NULL,
  writer TEXT NOT NULL,
  write_timestamp BIGINT NOT NULL,
  adapter_manifest TEXT NOT NULL,
  event_payload BLOB NOT NULL,
  event_ser_id INTEGER NOT NULL,
  event_ser_manifest TEXT NOT NULL,
  meta_payload BLOB,
  meta_ser_id INTEGER,
  meta_ser_manifest TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS event_journal_pid_seq ON event_journal(persistence_id, sequence_number);
CREATE TABLE IF NOT EXISTS event_tag (
  event_id BIGINT NOT NULL,
  tag TEXT NOT NULL,
  PRIMARY KEY (event_id, tag),
  FOREIGN KEY (event_id) REFERENCES event_journal(ordering) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS snapshot (
  persistence_id TEXT NOT NULL,
  sequence_number BIGINT NOT NULL,
  created BIGINT NOT NULL,
  snapshot_ser_id INTEGER NOT NULL,
  snapshot_ser_manifest TEXT NOT NULL,
  snapshot_payload BLOB NOT NULL,
  meta_ser_id INTEGER,
  meta_ser_manifest TEXT,
  meta_payload BLOB,
  PRIMARY KEY (persistence_id, sequence_number)
);
-- The read side: every job ever submitted, kept up to date from the journal.
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY,
  state TEXT NOT NULL,
  group_name TEXT,
  job_key TEXT,
  end_time TEXT,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, id);
CREATE INDEX IF NOT EXISTS jobs_group ON jobs(group_name, id);
CREATE TABLE IF NOT EXISTS read_offset (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq BIGINT NOT NULL
);
INSERT OR IGNORE INTO read_offset (id, seq) VALUES (1, 0);
CREATE TABLE IF NOT EXISTS gq_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
