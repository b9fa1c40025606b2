package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history tables a dropped history gets back (history.sql) are those the schema scripts build. */
class HistoryTablesShapeTest {
  private static final List<String> TABLES = List.of("jobs", "read_offset", "deleted_jobs");
  @TempDir Path dir;

  @Test
  void historySqlBuildsTheTablesTheMigrationsLeave() throws Exception {
    Path migrated = dir.resolve("migrated.db");
    Database.prepare(migrated);
    Path restored = dir.resolve("restored.db");
    try (Connection c = DriverManager.getConnection(Database.url(restored)); Statement st = c.createStatement()) {
      for (String sql : Database.statements("history.sql")) st.execute(sql);
    }
    assertEquals(shape(migrated), shape(restored));
  }

  /** Each table's columns (name, type, not null, key) and each index's columns, in order. */
  private static List<String> shape(Path file) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(Database.url(file)); Statement st = c.createStatement()) {
      for (String t : TABLES) {
        try (ResultSet rs = st.executeQuery("PRAGMA table_info(" + t + ")")) {
          while (rs.next())
            out.add(t + "." + rs.getString("name") + " " + rs.getString("type") + " notnull=" + rs.getInt("notnull")
                + " pk=" + rs.getInt("pk"));
        }
        List<String> indexes = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("PRAGMA index_list(" + t + ")")) {
          while (rs.next()) indexes.add(rs.getString("name") + " unique=" + rs.getInt("unique"));
        }
        indexes.sort(null);
        for (String ix : indexes) {
          StringBuilder cols = new StringBuilder(t + " index " + ix + ":");
          try (ResultSet rs = st.executeQuery("PRAGMA index_info(" + ix.substring(0, ix.indexOf(' ')) + ")")) {
            while (rs.next()) cols.append(' ').append(rs.getString("name"));
          }
          out.add(cols.toString());
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT sql FROM sqlite_master WHERE name = 'read_offset'")) {
        rs.next();
        out.add(rs.getString(1).replaceAll("\\s+", " ").contains("CHECK (id = 1)") ? "read_offset checked" : "unchecked");
      }
    }
    return out;
  }
}
