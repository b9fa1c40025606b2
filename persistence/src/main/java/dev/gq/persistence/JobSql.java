package dev.gq.persistence;

import dev.gq.core.job.Attempts;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The WHERE clause of a {@link JobQuery} over the {@code jobs} table (aliased {@code j}) and its
 * arguments, in order. Every value is a bound parameter; only fixed SQL text is concatenated.
 */
record JobSql(String where, List<Object> args) {
  /**
   * An attempt that a later one replaced, as {@link Attempts#replaces} decides: a later job of the
   * same lineage, or a later job submitted under the same key (the same cell of a sweep).
   */
  static final String SUPERSEDED =
      "(EXISTS (SELECT 1 FROM jobs k WHERE k.retry_of = coalesce(j.retry_of, j.id) AND k.id > j.id)"
      + " OR (j.job_key IS NOT NULL AND EXISTS (SELECT 1 FROM jobs k WHERE k.job_key = j.job_key AND k.id > j.id)))";

  /** {@link #SUPERSEDED} as if no job with an id of {@code idBelow} or more were stored. */
  static String supersededBelow(long idBelow) {
    return idBelow == Long.MAX_VALUE ? SUPERSEDED : SUPERSEDED.replace("k.id > j.id", "k.id > j.id AND k.id < " + idBelow);
  }

  /** A job's document without its environment; a document that is not JSON stays as it is. */
  static final String WITHOUT_ENV =
      "CASE WHEN json_valid(j.doc) THEN json_set(j.doc, '$.spec.env', json('{}')) ELSE j.doc END";

  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

  static JobSql of(JobQuery q) {
    List<String> parts = new ArrayList<>();
    List<Object> args = new ArrayList<>();
    if (!q.ranges().isEmpty()) {
      List<String> ors = new ArrayList<>();
      for (long[] r : q.ranges()) {
        ors.add("(j.id BETWEEN ? AND ?)");
        args.add(r[0]);
        args.add(r[1]);
      }
      parts.add("(" + String.join(" OR ", ors) + ")");
    }
    if (!q.states().isEmpty()) {
      parts.add("j.state IN (" + String.join(",", q.states().stream().map(s -> "?").toList()) + ")");
      for (JobState s : q.states()) args.add(s.name());
    }
    if (q.group() != null) {
      parts.add("j.group_name = ?");
      args.add(q.group());
    }
    if (q.belowId() > 0) {
      parts.add("j.id < ?");
      args.add(q.belowId());
    }
    if (q.endedBefore() != null) {
      parts.add("j.end_time < ?");
      args.add(endBound(q.endedBefore()));
    }
    if (q.latestOnly()) parts.add("NOT " + SUPERSEDED);
    return new JobSql(parts.isEmpty() ? "1=1" : String.join(" AND ", parts), args);
  }

  /**
   * End times are stored as {@link Instant#toString()}, whose fraction has a varying length, so
   * texts compare like times only when they differ within the first 19 characters. Comparing with
   * the whole second below {@code t} (no zone letter) keeps exactly the jobs that ended in an
   * earlier second: never one that ended after {@code t}.
   */
  static String endBound(Instant t) {
    return SECONDS.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  /** The listing query: {@code columns} of the jobs matching this clause, newest first, {@code q}'s limit. */
  String select(String columns, JobQuery q) {
    return "SELECT " + columns + " FROM jobs j WHERE " + where + " ORDER BY j.id DESC"
        + (q.limit() > 0 ? " LIMIT " + q.limit() : "");
  }
}
