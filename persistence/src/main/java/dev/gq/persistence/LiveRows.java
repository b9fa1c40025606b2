package dev.gq.persistence;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gq.core.job.Job;
import java.io.IOException;
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
 * history's last event ({@code cached}), so that the cache never holds a row older than the stored one.
 */
record LiveRows(Map<Long, Job> jobs, boolean cached) {
  static final LiveRows NONE = new LiveRows(Map.of(), false);
  private static final JsonFactory JSON = new JsonFactory();

  boolean holds(long id) {
    return jobs.containsKey(id);
  }

  /** Puts the rows of {@code ids} made from memory into {@code into}; returns the ids to decode instead. */
  List<Long> complete(Connection db, ListingCache listing, List<Long> ids, Map<Long, Job> into) throws SQLException {
    List<Long> decode = new ArrayList<>();
    String marks = String.join(",", Collections.nCopies(ids.size(), "?"));
    try (PreparedStatement ps = db.prepareStatement("SELECT j.id, j.state, json_extract(j.doc, '$.spec.argv', '$.logPath')"
        + " FROM jobs j WHERE j.id IN (" + marks + ")")) {
      for (int i = 0; i < ids.size(); i++) ps.setLong(i + 1, ids.get(i));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Job j = made(jobs.get(rs.getLong(1)), rs.getString(2), rs.getString(3));
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

  /** The job {@code held} with the command and log path of {@code fields} ({@code [argv, logPath]}); null when they do not fit. */
  static Job made(Job held, String state, String fields) {
    if (held == null || fields == null || !held.state().name().equals(state)) return null;
    try (JsonParser p = JSON.createParser(fields)) {
      if (p.nextToken() != JsonToken.START_ARRAY || p.nextToken() != JsonToken.START_ARRAY) return null;
      List<String> argv = new ArrayList<>();
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        if (t != JsonToken.VALUE_STRING) return null;
        argv.add(p.getText());
      }
      JsonToken log = p.nextToken();
      if (log != JsonToken.VALUE_STRING && log != JsonToken.VALUE_NULL) return null;
      String logPath = log == JsonToken.VALUE_NULL ? null : p.getText();
      if (p.nextToken() != JsonToken.END_ARRAY || argv.isEmpty()) return null;
      return held.withStored(held.spec().withArgv(argv), logPath);
    } catch (IOException e) {
      return null;
    }
  }
}
