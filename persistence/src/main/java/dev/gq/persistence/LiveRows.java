package dev.gq.persistence;

import dev.gq.core.job.Job;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The live jobs as the Scheduler's memory keeps them, without their commands and log paths, for a
 * listing that reads from the history only what the memory lacks: the row of a job held here is
 * made from the job and the command and log path read from the row, without decoding its record
 * (most of which is the environment no listing shows). A row whose state is not the job's (the
 * history has an event the memory had not when it was taken), or whose fields cannot be read, is
 * decoded instead. The rows made go into the listing cache only when the memory is as of the
 * history's last event ({@code cached}), so that the cache never holds a row older than the stored
 * one. Without {@code logPaths} (a table, which shows none) the rows are made without their log
 * paths, from the beginning of the record alone, and never cached.
 */
record LiveRows(Map<Long, Job> jobs, boolean cached, boolean logPaths) {
  static final LiveRows NONE = new LiveRows(Map.of(), false, true);
  /** Both fields, from the whole record. */
  private static final String WHOLE = "json_extract(j.doc, '$.spec.argv', '$.logPath')";
  /**
   * The command alone, from the beginning of the record: a record is written id, then spec with its
   * argv first, so the text up to the {@code ],"cwd":} that ends the argv (which no string in it can
   * hold unescaped), closed, is a small document with the same argv; any other record is read whole.
   */
  private static final String COMMAND = "CASE WHEN instr(j.doc, '],\"cwd\":') > 0"
      + " THEN json_extract(substr(j.doc, 1, instr(j.doc, '],\"cwd\":')) || '}}', '$.spec.argv')"
      + " ELSE json_extract(j.doc, '$.spec.argv') END";

  boolean holds(long id) {
    return jobs.containsKey(id);
  }

  /** Puts the rows of {@code ids} made from memory into {@code into}; returns the ids to decode instead. */
  List<Long> complete(Connection db, ListingCache listing, List<Long> ids, Map<Long, Job> into) throws SQLException {
    List<Long> decode = new ArrayList<>();
    String marks = String.join(",", Collections.nCopies(ids.size(), "?"));
    try (PreparedStatement ps = db.prepareStatement("SELECT j.id, j.state, " + (logPaths ? WHOLE : COMMAND)
        + " FROM jobs j WHERE j.id IN (" + marks + ")")) {
      for (int i = 0; i < ids.size(); i++) ps.setLong(i + 1, ids.get(i));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Job j = made(jobs.get(rs.getLong(1)), rs.getString(2), rs.getString(3), logPaths);
          if (j == null) {
            decode.add(rs.getLong(1));
            continue;
          }
          into.put(j.id(), j);
          if (cached) listing.put(j);
        }
      }
    } catch (SQLException e) {
      // a record that is not JSON fails the whole read: each row is decoded (or named unreadable) instead
      return ids;
    }
    return decode;
  }

  /**
   * The job {@code held} with the command and log path of {@code fields} ({@code [argv, logPath]};
   * without {@code logPaths}, {@code argv} alone and no log path); null when they do not fit.
   */
  static Job made(Job held, String state, String fields, boolean logPaths) {
    if (held == null || fields == null || !held.state().name().equals(state)) return null;
    Fields f = new Fields(fields);
    List<String> argv = new ArrayList<>();
    if (logPaths && !f.next('[')) return null;
    if (!f.next('[')) return null;
    if (!f.next(']')) {
      do {
        String arg = f.string();
        if (arg == null) return null;
        argv.add(arg);
      } while (f.next(','));
      if (!f.next(']')) return null;
    }
    if (!logPaths) return f.atEnd() && !argv.isEmpty() ? held.withStored(held.spec().withArgv(argv), null) : null;
    if (!f.next(',')) return null;
    String logPath = f.nextNull() ? null : f.string();
    if ((logPath == null && !f.wasNull) || !f.next(']') || !f.atEnd() || argv.isEmpty()) return null;
    return held.withStored(held.spec().withArgv(argv), logPath);
  }

  /** The JSON text SQLite gives for two values: strings and their escapes, read by hand; null on anything else. */
  private static final class Fields {
    private final String s;
    private int i;
    boolean wasNull;

    Fields(String s) {
      this.s = s;
    }

    boolean next(char c) {
      if (i < s.length() && s.charAt(i) == c) {
        i++;
        return true;
      }
      return false;
    }

    boolean nextNull() {
      wasNull = s.startsWith("null", i);
      if (wasNull) i += 4;
      return wasNull;
    }

    boolean atEnd() {
      return i == s.length();
    }

    String string() {
      if (!next('"')) return null;
      StringBuilder out = null;
      int plain = i;
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c == '"') {
          String tail = s.substring(plain, i++);
          return out == null ? tail : out.append(tail).toString();
        }
        if (c != '\\') {
          i++;
          continue;
        }
        if (out == null) out = new StringBuilder();
        out.append(s, plain, i);
        if (i + 1 >= s.length()) return null;
        char e = s.charAt(i + 1);
        i += 2;
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'n' -> out.append('\n');
          case 't' -> out.append('\t');
          case 'r' -> out.append('\r');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'u' -> {
            if (i + 4 > s.length()) return null;
            try {
              out.append((char) Integer.parseInt(s, i, i + 4, 16));
            } catch (NumberFormatException x) {
              return null;
            }
            i += 4;
          }
          default -> {
            return null;
          }
        }
        plain = i;
      }
      return null;
    }
  }
}
