package dev.gq.persistence;

import java.nio.file.Path;

/**
 * The Pekko configuration that puts the journal and snapshots in gq's SQLite file through
 * pekko-persistence-jdbc: one shared Slick database with ONE connection (SQLite has one writer),
 * WAL and synchronous=FULL from the URL, and Jackson JSON for events and snapshots. Snapshots have
 * a serializer of their own ({@value #SNAPSHOT_SERIALIZER}, binding {@value #SNAPSHOT_BINDING}): the
 * same JSON, compressed with LZ4 as it is written instead of gzip after (a snapshot of 100,000 waiting
 * jobs is 13 MB of JSON, and each part of a long batch stores one). Snapshots stored before by the
 * events' binding ({@code jackson-json}, gzipped) still load through it.
 */
public final class JournalConfig {
  /** The serializer of snapshots (in the daemon), its binding, and its id (31 is the events' binding, {@code jackson-json}). */
  public static final String SNAPSHOT_SERIALIZER = "dev.gq.actors.scheduler.SnapshotSerializer";
  public static final String SNAPSHOT_BINDING = "gq-snapshot";
  public static final int SNAPSHOT_SERIALIZER_ID = 7010;

  private JournalConfig() {}

  public static String hocon(Path db) {
    String url = Database.url(db).replace("\\", "\\\\").replace("\"", "\\\"");
    return """
        pekko.persistence.journal.plugin = "jdbc-journal"
        pekko.persistence.snapshot-store.plugin = "jdbc-snapshot-store"
        pekko.persistence.journal.auto-start-journals = ["jdbc-journal"]
        pekko.persistence.snapshot-store.auto-start-snapshot-stores = ["jdbc-snapshot-store"]
        pekko.actor.serializers.gq-snapshot = "%s"
        pekko.actor.serialization-bindings {
          "dev.gq.core.ledger.LedgerEvent" = jackson-json
          "dev.gq.core.ledger.Ledger" = jackson-json
          "dev.gq.persistence.LedgerSnapshot" = gq-snapshot
        }
        pekko.serialization.jackson.gq-snapshot.serialization-features.WRITE_DATES_AS_TIMESTAMPS = off
        # snapshots stored by the events' binding: it reads them, although they are no longer bound to it
        pekko.serialization.jackson.allowed-class-prefix = ["dev.gq.persistence.LedgerSnapshot"]
        jdbc-journal.use-shared-db = "slick"
        jdbc-snapshot-store.use-shared-db = "slick"
        pekko-persistence-jdbc.shared-databases.slick {
          profile = "slick.jdbc.SQLiteProfile$"
          db {
            url = "%s"
            driver = "org.sqlite.JDBC"
            connectionPool = "HikariCP"
            numThreads = 1
            maxConnections = 1
            minConnections = 1
            queueSize = 100000
            connectionTimeout = 30s
          }
        }
        """.formatted(SNAPSHOT_SERIALIZER, url);
  }
}
