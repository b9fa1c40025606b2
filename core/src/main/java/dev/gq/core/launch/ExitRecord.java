package dev.gq.core.launch;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The shim's record of how a job's command ended, read from {@code <data>/run/<id>.exit}. A first
 * line {@code exit N}, {@code signal N} or {@code exec-error TEXT} (the command could not be
 * started), then optional lines: {@code pid N}, the shim's own pid (the job's session and group
 * leader), and {@code alone} when the shim found no process the job started left as it ended
 * ({@link #leftNothing}). Records written before the pid line existed have none: {@code pid} is
 * null. The pid is for display only: it is not a verified identity (no start time, no boot id), so
 * gq never signals it. {@code writtenAt} is when the job ended, from the record's {@code ended}
 * line, which the shim writes (its clock, read after the job's last process had ended) only when it
 * found nothing the job started left; null when not known (processes of the job were left, or a
 * shim that wrote no such line): then the end is when gq saw it.
 */
public record ExitRecord(Kind kind, int code, String text, Long pid, Instant writtenAt) {

  public enum Kind { EXITED, SIGNALLED, EXEC_FAILED }

  // Linux signals are 1..64 (SIGRTMAX); the shim writes WEXITSTATUS (0..255) or WTERMSIG.
  private static final int MAX_SIGNAL = 64;
  // PID_MAX_LIMIT: no Linux pid is larger.
  private static final int MAX_PID = 4_194_304;
  private static final String ALONE = "alone";
  private static final String PID = "pid ";
  private static final String ENDED = "ended ";

  /** A record without a pid, as written before the shim added one. */
  public ExitRecord(Kind kind, int code, String text) {
    this(kind, code, text, null, null);
  }

  /** A record whose time is not known. */
  public ExitRecord(Kind kind, int code, String text, Long pid) {
    this(kind, code, text, pid, null);
  }

  public static ExitRecord exited(int code) {
    return new ExitRecord(Kind.EXITED, code, null);
  }

  public static ExitRecord signalled(int signal) {
    return new ExitRecord(Kind.SIGNALLED, signal, null);
  }

  public static ExitRecord execFailed(String text) {
    return new ExitRecord(Kind.EXEC_FAILED, 127, text);
  }

  /** The same record naming {@code shimPid} (null: none). */
  public ExitRecord withPid(Long shimPid) {
    return new ExitRecord(kind, code, text, shimPid, writtenAt);
  }

  /** The same record, written at {@code at} (null: not known). */
  public ExitRecord writtenAt(Instant at) {
    return new ExitRecord(kind, code, text, pid, at);
  }

  /**
   * When the job ended by this record: when it was written, kept within the job's time ({@code
   * started}, null: unknown, to {@code now}); {@code now} when it is not known.
   */
  public Instant endTime(Instant started, Instant now) {
    if (writtenAt == null || writtenAt.isAfter(now)) return now;
    return started != null && writtenAt.isBefore(started) ? started : writtenAt;
  }

  /**
   * Parses the file's content; empty when it is not a record the shim writes (garbage, truncated, a
   * number out of range: a status outside 0..255, a signal outside 1..64, a pid outside 1..2^22,
   * or an optional line repeated or unknown).
   */
  public static Optional<ExitRecord> parse(String content) {
    String[] lines = content.strip().split("\n", -1);
    Optional<ExitRecord> record = first(lines[0].strip());
    Long pid = null;
    boolean alone = false;
    Instant ended = null;
    for (int i = 1; i < lines.length && record.isPresent(); i++) {
      String line = lines[i].strip();
      if (line.equals(ALONE) && !alone) alone = true;
      else if (line.startsWith(PID) && pid == null) {
        Optional<Integer> n = number(line.substring(PID.length()), 1, MAX_PID);
        if (n.isEmpty()) return Optional.empty();
        pid = (long) n.get();
      } else if (line.startsWith(ENDED) && ended == null) {
        ended = instant(line.substring(ENDED.length()));
        if (ended == null) return Optional.empty();
      } else return Optional.empty();
    }
    Long shimPid = pid;
    // only a shim that saw nothing of the job left knows when its last process ended
    Instant end = alone ? ended : null;
    return record.map(r -> r.withPid(shimPid).writtenAt(end));
  }

  /** "1765000000.123456789" as an instant; null when it is not one. */
  private static Instant instant(String s) {
    int dot = s.indexOf('.');
    if (dot < 1 || s.length() - dot - 1 != 9) return null;
    try {
      long sec = Long.parseLong(s.substring(0, dot));
      long nanos = Long.parseLong(s.substring(dot + 1));
      return sec < 0 || nanos < 0 ? null : Instant.ofEpochSecond(sec, nanos);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Optional<ExitRecord> first(String line) {
    int space = line.indexOf(' ');
    if (space < 0) return Optional.empty();
    String word = line.substring(0, space);
    String rest = line.substring(space + 1).strip();
    return switch (word) {
      case "exit" -> number(rest, 0, 255).map(ExitRecord::exited);
      case "signal" -> number(rest, 1, MAX_SIGNAL).map(ExitRecord::signalled);
      case "exec-error" -> rest.isEmpty() ? Optional.empty() : Optional.of(execFailed(rest));
      default -> Optional.empty();
    };
  }

  /**
   * Whether {@code content} is a whole record that says no process the job started was left when
   * the shim ended: then none of the job's session or process group can be alive either.
   */
  public static boolean leftNothing(String content) {
    return parse(content).isPresent() && content.strip().lines().skip(1).anyMatch(l -> l.strip().equals(ALONE));
  }

  // Plain ASCII digits only: parseInt would also take a sign, or digits of other scripts.
  private static Optional<Integer> number(String s, int min, int max) {
    boolean digits = !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
    if (!digits || s.length() > String.valueOf(max).length()) return Optional.empty();
    int n = Integer.parseInt(s);
    return n < min || n > max ? Optional.empty() : Optional.of(n);
  }

  /** The exit code as gq reports it: the status, or 128+signal for a signal (as shells do). */
  public int exitCode() {
    return kind == Kind.SIGNALLED ? 128 + code : code;
  }

  /** The first line, as the shim writes it (without the optional lines). */
  public String render() {
    return switch (kind) {
      case EXITED -> "exit " + code;
      case SIGNALLED -> "signal " + code;
      case EXEC_FAILED -> "exec-error " + text;
    };
  }

  /** The same outcome: kind, code, text and shim pid; when the record was written is not part of it. */
  @Override
  public boolean equals(Object o) {
    return o instanceof ExitRecord r && r.kind == kind && r.code == code && Objects.equals(r.text, text)
        && Objects.equals(r.pid, pid);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, code, text, pid);
  }
}
