package dev.gq.actors.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Scheduler's journal as the chaos run sees it: every event that names a job, read straight
 * from the daemon's SQLite file (its events are JSON). Used to tell which jobs were STARTING
 * (reserved, no launch recorded) at the instant the daemon was killed, what recovery then did
 * with them, and to show a job's whole history when a check fails.
 */
final class ChaosJournal {
  /** One stored event about a job: its short type name (JobReserved, ...) and its JSON body. */
  record Event(long ordering, String type, long jobId, JsonNode body) {
    @Override
    public String toString() {
      return "#" + ordering + " " + type + " " + body;
    }
  }

  final List<Event> events;

  private ChaosJournal(List<Event> events) {
    this.events = events;
  }

  /** Reads the journal; safe while the daemon runs (WAL) and after it was killed. */
  static ChaosJournal read(Path database) {
    List<Event> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database);
        Statement st = c.createStatement()) {
      st.execute("PRAGMA busy_timeout = 10000");
      try (ResultSet rs = st.executeQuery(
          "SELECT ordering, event_ser_manifest, CAST(event_payload AS TEXT) FROM event_journal ORDER BY ordering")) {
        while (rs.next()) {
          String manifest = rs.getString(2);
          JsonNode body = Gqd.JSON.readTree(rs.getString(3));
          if (body == null || !body.has("jobId")) continue;
          String type = manifest.substring(manifest.lastIndexOf('$') + 1);
          out.add(new Event(rs.getLong(1), type, body.get("jobId").asLong(), withoutSpec(body)));
        }
      }
    } catch (SQLException | IOException e) {
      throw new AssertionError("cannot read the journal " + database + ": " + e, e);
    }
    return new ChaosJournal(out);
  }

  /** A submit's stored environment and script are long and say nothing about what happened. */
  private static JsonNode withoutSpec(JsonNode body) {
    if (body.has("spec") && body instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
      o.remove("spec");
      o.remove("tag");
    }
    return body;
  }

  /** Jobs whose latest event is a reservation: STARTING, with no launch recorded. */
  Set<Long> starting() {
    Map<Long, String> last = new HashMap<>();
    for (Event e : events) last.put(e.jobId(), e.type());
    Set<Long> out = new TreeSet<>();
    last.forEach((id, type) -> {
      if (type.equals("JobReserved")) out.add(id);
    });
    return out;
  }

  private static final Set<String> ENDS = Set.of("JobExited", "JobInterrupted", "JobLaunchFailed", "JobCancelled");

  /** True when the latest stored event of every one of {@code ids} ends the job. */
  boolean allEnded(java.util.Collection<Long> ids) {
    Map<Long, String> last = new HashMap<>();
    for (Event e : events) last.put(e.jobId(), e.type());
    return ids.stream().allMatch(id -> ENDS.contains(last.get(id)));
  }

  /** The type of the latest stored event about the job, or null. */
  String lastType(long jobId) {
    String type = null;
    for (Event e : events) if (e.jobId() == jobId) type = e.type();
    return type;
  }

  boolean ends(String type) {
    return ENDS.contains(type);
  }

  List<Event> of(long jobId) {
    return events.stream().filter(e -> e.jobId() == jobId).toList();
  }

  long count(long jobId, String type) {
    return events.stream().filter(e -> e.jobId() == jobId && e.type().equals(type)).count();
  }

  /** The last event of {@code type} about the job, or null. */
  Event last(long jobId, String type) {
    Event found = null;
    for (Event e : events) if (e.jobId() == jobId && e.type().equals(type)) found = e;
    return found;
  }

  long lastOrdering() {
    return events.isEmpty() ? 0 : events.get(events.size() - 1).ordering();
  }
}
