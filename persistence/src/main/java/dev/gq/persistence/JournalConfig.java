package dev.gq.persistence;

import java.nio.file.Path;

/**
 * The Pekko configuration that puts the journal and snapshots in gq's SQLite file through
 * pekko-persistence-jdbc: one shared Slick database with ONE connection (SQLite has one writer),
 * WAL and synchronous=FULL from the URL, and Jackson JSON for events and snapshots.
 */
public final class JournalConfig {
  private JournalConfig() {}

  public static String hocon(Path db) {
    String url = Database.url(db).replace("\\", "\\\\").replace("\"", "\\\"");
    return """
        pekko.persistence.journal.plugin = "jdbc-journal"
        pekko.persistence.snapshot-store.plugin = "jdbc-snapshot-store"
        pekko.persistence.journal.auto-start-journals = ["jdbc-journal"]
        pekko.persistence.snapshot-store.auto-start-snapshot-stores = ["jdbc-snapshot-store"]
        pekko.actor.serialization-bindings {
          "dev.gq.core.ledger.LedgerEvent" = jackson-json
          "dev.gq.core.ledger.Ledger" = jackson-json
          "dev.gq.persistence.LedgerSnapshot" = jackson-json
        }
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
        """.formatted(url);
  }
}
