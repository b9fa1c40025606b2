package dev.gq.core.fair;

import dev.gq.core.proc.ProcInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which demand files count and what they add up to. A file counts only when its owner (as lstat
 * says) is the uid it claims, so nobody can speak for another user, and its daemon still runs: the
 * process with its pid exists, is no zombie, started at the recorded /proc start time (a reused
 * pid starts later) and on this boot. Anything else is ignored with a reason, never an error.
 * Each daemon's file is named by its uid and a random part the daemon chose and keeps for its
 * lifetime ({@link #fileName}), so one user's two daemons publish two files whose counts add up per
 * user, and nobody can make a file at a daemon's name before it does. A daemon removes its own
 * user's files whose daemon has ended and its own user's temporary files left by a daemon killed
 * mid-write ({@link #leftover}), never another user's. Pure.
 */
public final class DemandRules {
  public static final String SUFFIX = ".demand";
  /** How old a temporary file must be before its owner's daemon takes it for one left by a killed daemon. */
  public static final Duration TEMP_AGE = Duration.ofMinutes(1);
  private static final Pattern NAME = Pattern.compile("demand-(\\d{1,10})-[0-9a-f]{16}\\.demand");
  private static final Pattern TEMP = Pattern.compile("\\.demand-(\\d{1,10})-[0-9a-f]{16}\\.demand\\.tmp-[0-9a-f]{1,32}");

  private DemandRules() {}

  /** The name of the demand file of a daemon of {@code uid} that chose {@code part} (16 lowercase hex digits). */
  public static String fileName(int uid, String part) {
    if (uid < 0 || !part.matches("[0-9a-f]{16}")) throw new IllegalArgumentException("no demand file name: uid " + uid + ", " + part);
    return "demand-" + uid + "-" + part + SUFFIX;
  }

  /** Whether {@code name} is a demand file's name (the only files the readers open). */
  public static boolean isDemandFile(String name) {
    return NAME.matcher(name).matches();
  }

  /** The uid a demand file's or its temporary file's name carries; -1 for any other name. */
  public static long uidOf(String name) {
    Matcher m = NAME.matcher(name);
    if (!m.matches()) m = TEMP.matcher(name);
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }

  /**
   * Whether the daemon of {@code self} removes the file {@code name}, {@code ownerUid}'s (lstat),
   * last changed at {@code changed}: a temporary demand file of its own user's, under its own uid's
   * name, older than {@link #TEMP_AGE} (a daemon writes one in milliseconds: this one's daemon was
   * killed mid-write). Another user's file is never removed.
   */
  public static boolean leftover(String name, int ownerUid, int self, Instant changed, Instant now) {
    return TEMP.matcher(name).matches() && ownerUid == self && uidOf(name) == self && changed.plus(TEMP_AGE).isBefore(now);
  }

  /**
   * Whether the daemon of {@code self} removes the demand file {@code name}, {@code ownerUid}'s,
   * holding {@code d}, which does not count for {@code whyIgnored} (null when it counts): its own
   * user's file, under its own uid's name, speaking for it, whose daemon has ended.
   */
  public static boolean ended(String name, int ownerUid, Demand d, String whyIgnored, int self) {
    return whyIgnored != null && isDemandFile(name) && ownerUid == self && uidOf(name) == self && d.uid() == self;
  }

  /**
   * Why the demand {@code d}, read from a file owned by {@code fileOwnerUid}, does not count
   * (one phrase); null when it does. {@code daemon} is what /proc says of its pid now (empty: no
   * such process), {@code bootId} this boot's id.
   */
  public static String ignored(Demand d, int fileOwnerUid, Optional<ProcInfo> daemon, String bootId) {
    if (fileOwnerUid != d.uid()) return "it claims uid " + d.uid() + " but belongs to uid " + fileOwnerUid;
    if (!d.bootId().equals(bootId)) return "it was written before the machine last started";
    if (daemon.isEmpty() || daemon.get().zombie()) return "its daemon (pid " + d.pid() + ") has ended";
    if (daemon.get().startTicks() != d.startTicks()) return "its daemon (pid " + d.pid() + ") has ended; the pid is another process's now";
    return null;
  }

  /**
   * Why a file named {@code name} but owned by {@code fileOwnerUid} does not count: its name is
   * another uid's (someone made it first to keep that user's daemon from publishing); null when
   * the name is the owner's.
   */
  public static String misnamed(String name, int fileOwnerUid) {
    long uid = uidOf(name);
    return uid == fileOwnerUid ? null : "its name is uid " + uid + "'s but it belongs to uid " + fileOwnerUid;
  }

  /**
   * The counted demands summed per user, in the order first seen. Users are told apart by uid, not
   * by the name a file states: one uid's files are one user (named as in its first file), however
   * many names they claim; a name another uid claimed first is shown as "name (uid N)".
   */
  public static Map<String, UserLoad> perUser(List<Demand> counted) {
    Map<Integer, UserLoad> byUid = new LinkedHashMap<>();
    for (Demand d : counted) byUid.merge(d.uid(), UserLoad.of(d), UserLoad::plus);
    Map<String, UserLoad> out = new LinkedHashMap<>();
    for (Map.Entry<Integer, UserLoad> e : byUid.entrySet()) {
      UserLoad u = e.getValue();
      String name = out.containsKey(u.user()) ? u.user() + " (uid " + e.getKey() + ")" : u.user();
      out.put(name, new UserLoad(name, u.held(), u.wanted(), u.nextNeed(), u.oldestWait()));
    }
    return out;
  }
}
