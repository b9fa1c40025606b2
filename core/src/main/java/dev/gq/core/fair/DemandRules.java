package dev.gq.core.fair;

import dev.gq.core.proc.ProcInfo;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which demand files count and what they add up to. A file counts only when its owner (as lstat
 * says) is the uid it claims, so nobody can speak for another user, and its daemon still runs: the
 * process with its pid exists, is no zombie, started at the recorded /proc start time (a reused
 * pid starts later) and on this boot. Anything else is ignored with a reason, never an error.
 * Each daemon's file is named by its uid and a digest of its data directory, so one user's two
 * daemons publish two files and their counts add up per user. Pure.
 */
public final class DemandRules {
  public static final String SUFFIX = ".demand";

  private DemandRules() {}

  /** The name of the demand file of the daemon of {@code uid} with data directory {@code dataDir}. */
  public static String fileName(int uid, String dataDir) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(dataDir.getBytes(StandardCharsets.UTF_8));
      return "demand-" + uid + "-" + HexFormat.of().formatHex(d, 0, 8) + SUFFIX;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether {@code name} is a demand file's name (the only files the readers open). */
  public static boolean isDemandFile(String name) {
    return name.matches("demand-\\d{1,10}-[0-9a-f]{16}\\.demand");
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
    String uid = name.substring("demand-".length(), name.lastIndexOf('-'));
    return uid.equals(Integer.toString(fileOwnerUid)) ? null : "its name is uid " + uid + "'s but it belongs to uid " + fileOwnerUid;
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
