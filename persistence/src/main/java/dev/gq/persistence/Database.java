package dev.gq.persistence;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;

/**
 * The SQLite file: opens it with the pragmas gq relies on (WAL, synchronous=FULL, busy timeout),
 * checks that it is a gq database, not from a newer gq, with its small start-up tables and the
 * journal rows start-up replays readable, and creates or upgrades the schema. A damaged or foreign file is refused with a recovery hint; gq
 * never starts empty over an existing file. {@link #fullCheck} checks every page.
 */
public final class Database {
  /** The schema this gq writes; a file with a higher version was written by a newer gq. */
  public static final int SCHEMA_VERSION = 4;
  /** Read at every start-up whatever the history's size: checked whole before the daemon starts. */
  private static final List<String> SMALL_TABLES = List.of("gq_meta", "read_offset", "snapshot");

  private Database() {}

  /** The JDBC URL with the pragmas gq needs on every connection. */
  public static String url(Path file) {
    return "jdbc:sqlite:" + file + "?journal_mode=WAL&synchronous=FULL&busy_timeout=5000&foreign_keys=true";
  }

  /**
   * The URL of the history's writer: as {@link #url}, but its commits are not flushed to the disk
   * each (synchronous=NORMAL). The history is rebuilt from the journal, whose commits are: a commit
   * of the history lost with the power is caught up again, and the write-ahead log keeps each
   * commit whole and in order, so the journal's next flushed commit flushes the history's before
   * it too. A batch of 100,000 jobs commits the history 100 times.
   */
  public static String historyUrl(Path file) {
    return url(file).replace("synchronous=FULL", "synchronous=NORMAL");
  }

  /** Checks and prepares the database; throws {@link DatabaseRefused} with the line to show. */
  public static void prepare(Path file) throws DatabaseRefused {
    boolean existed = Files.exists(file);
    if (existed && !Files.isReadable(file))
      throw new DatabaseRefused("cannot read the database " + file + "; check its owner and mode (it should be yours, 0600)");
    if (!existed) create(file);
    try (Connection c = DriverManager.getConnection(url(file)); Statement st = c.createStatement()) {
      if (existed) {
        check(file, st);
        ReplayRows.read(c);
      }
      int version = version(st);
      if (version > SCHEMA_VERSION)
        throw new DatabaseRefused("the database " + file + " was written by a newer gq (schema " + version
            + ", this gq knows " + SCHEMA_VERSION + "); upgrade gq, or set GQ_DATA_DIR to use another directory");
      if (version < SCHEMA_VERSION) migrate(c, st, version);
    } catch (SQLException e) {
      throw damaged(file, e.getMessage());
    }
  }

  private static void create(Path file) throws DatabaseRefused {
    try {
      Files.createDirectories(file.getParent());
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (IOException e) {
      throw new DatabaseRefused("cannot create the database " + file + ": " + e.getMessage());
    }
  }

  /**
   * The start-up check: the file is an SQLite database whose schema reads, and the small tables
   * start-up relies on are whole. Costs the same at any history size; {@link #fullCheck} reads
   * every page (a second or more at 100,000 jobs) and runs once the daemon is up.
   */
  private static void check(Path file, Statement st) throws SQLException, DatabaseRefused {
    try (ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master")) {
      rs.next();
    }
    for (String table : SMALL_TABLES) {
      try (ResultSet t = st.executeQuery("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='" + table + "'")) {
        if (!t.next() || t.getInt(1) == 0) continue;
      }
      try (ResultSet rs = st.executeQuery("PRAGMA quick_check('" + table + "')")) {
        String verdict = rs.next() ? rs.getString(1) : "no answer";
        if (!"ok".equals(verdict)) throw damaged(file, verdict);
      }
    }
  }

  /**
   * Moves every committed transaction from the write-ahead log into the file itself and empties the
   * log (SQLite's {@code wal_checkpoint(TRUNCATE)}), so that the file alone holds the whole history
   * once the daemon has stopped. Returns null when done, else why not (another connection still
   * reading, or an error): then the log still holds those transactions and must stay beside the file.
   */
  public static String checkpoint(Path file) {
    try (Connection c = DriverManager.getConnection(url(file)); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
      if (!rs.next()) return "no answer from SQLite";
      return rs.getInt(1) == 0 ? null : "the database is busy (" + rs.getInt(3) + " of " + rs.getInt(2) + " pages copied)";
    } catch (SQLException e) {
      return firstLine(e.getMessage());
    }
  }

  /** Every page of the file checked (SQLite's quick_check), read-only; null when whole, else what is wrong. */
  public static String fullCheck(Path file) {
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    config.setBusyTimeout(5000);
    try (Connection c = config.createConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA quick_check")) {
      String verdict = rs.next() ? rs.getString(1) : "no answer";
      return "ok".equals(verdict) ? null : firstLine(verdict);
    } catch (SQLException e) {
      return firstLine(e.getMessage());
    }
  }

  /**
   * The line a running daemon shows (in the log and `gq daemon status`) when the check of every page
   * finds damage: it keeps running, and the next start will refuse the file if it reads the damage.
   */
  public static String damagedText(Path file, String why) {
    return "the database " + file + " is damaged (" + firstLine(why) + "), found by the check of every page; the daemon"
        + " keeps running for now: stop it ('gq daemon stop'), then " + recovery(file);
  }

  /** The line start-up refuses a damaged file with (also when replay, not the start-up check, meets the damage). */
  public static String refusalText(Path file, String why) {
    return damaged(file, why).getMessage();
  }

  private static DatabaseRefused damaged(Path file, String why) {
    return new DatabaseRefused("the database " + file + " is damaged or not a gq database (" + firstLine(why)
        + "); the daemon will not start over it: " + recovery(file));
  }

  /** What to do with a damaged file: keep it for inspection and start a new history beside the old job files, or restore. */
  private static String recovery(Path file) {
    Path logs = file.resolveSibling("logs");
    Path run = file.resolveSibling("run");
    return "copy it aside for inspection, with its -wal and -shm files if any, and start a new history (mv " + file + " "
        + file + ".damaged; mv " + logs + " " + logs + ".old; mv " + run + " " + run + ".old), or restore a backup";
  }

  private static String firstLine(String s) {
    if (s == null) return "unknown error";
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  private static int version(Statement st) throws SQLException {
    try (ResultSet rs = st.executeQuery(
        "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='gq_meta'")) {
      if (!rs.next() || rs.getInt(1) == 0) return 0;
    }
    try (ResultSet rs = st.executeQuery("SELECT value FROM gq_meta WHERE key='schema_version'")) {
      return rs.next() ? Integer.parseInt(rs.getString(1)) : 0;
    }
  }

  /** Brings the file from {@code from} to {@link #SCHEMA_VERSION}, one transaction per version (script and bump). */
  private static void migrate(Connection c, Statement st, int from) throws SQLException {
    for (int v = from + 1; v <= SCHEMA_VERSION; v++) {
      c.setAutoCommit(false);
      try {
        for (String sql : statements("schema-" + v + ".sql")) st.execute(sql);
        st.execute("INSERT OR REPLACE INTO gq_meta (key, value) VALUES ('schema_version', '" + v + "')");
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  /** The statements of the SQL script {@code name} (a resource beside this class), comments alone left out. */
  static List<String> statements(String name) {
    List<String> out = new ArrayList<>();
    for (String sql : script(name).split(";\\s*\n")) if (!sql.isBlank() && !onlyComments(sql)) out.add(sql);
    return out;
  }

  private static boolean onlyComments(String sql) {
    return sql.lines().allMatch(l -> l.isBlank() || l.strip().startsWith("--"));
  }

  private static String script(String name) {
    try (InputStream in = Database.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("schema resource " + name + " missing from the build", e);
    }
  }
}
