package dev.gq.core.fair;

/**
 * Whether the policy file can be trusted: only a file that no one but root can write is a
 * machine policy, since every user's gq obeys it. Refused, with one line naming the file, what is
 * wrong and the command that fixes it: a symbolic link (its target may be anyone's), anything but
 * a regular file, a file not owned by the trusted owner (root; tests pass their own uid), a file
 * with the group or other write bit, and a file in a folder that someone else could replace it in
 * (not owned by the trusted owner, or writable by group or others without the sticky bit). The
 * line says what is wrong and the fix, not what gq does meanwhile ({@link PolicyReading#then} says
 * that). No file is no policy, never an error. Pure: the host reads the facts with lstat.
 */
public final class PolicyTrust {
  private PolicyTrust() {}

  /** What lstat says about the file and the folder it is in. */
  public record Facts(int type, int ownerUid, int mode, int dirOwnerUid, int dirMode) {
    /** File types, as {@code ls -l} shows them. */
    public static final int REGULAR = 0100000, LINK = 0120000, DIRECTORY = 0040000;
  }

  /**
   * Why the policy file {@code file} with {@code facts} is not trusted, in one line; null when it
   * is. {@code trustedUid} is 0 except in tests.
   */
  public static String refusal(String file, Facts facts, int trustedUid) {
    String owner = trustedUid == 0 ? "root" : "uid " + trustedUid;
    String chown = "; run: chown " + (trustedUid == 0 ? "root" : trustedUid) + " ";
    if (facts.type() == Facts.LINK) return "the policy file " + file + " is a symbolic link; replace it with the file itself";
    if (facts.type() != Facts.REGULAR) return "the policy file " + file + " is not a regular file; replace it with a TOML file";
    if (facts.ownerUid() != trustedUid)
      return "the policy file " + file + " is owned by uid " + facts.ownerUid() + ", not " + owner + chown + file;
    if ((facts.mode() & 022) != 0)
      return "the policy file " + file + " is writable by " + writers(facts.mode()) + " (mode " + octal(facts.mode())
          + "); run: chmod go-w " + file;
    String dir = parent(file);
    if (facts.dirOwnerUid() != trustedUid)
      return "the policy file's folder " + dir + " is owned by uid " + facts.dirOwnerUid() + ", not " + owner
          + ", so its owner could replace the file" + chown + dir;
    if ((facts.dirMode() & 022) != 0 && (facts.dirMode() & 01000) == 0)
      return "the policy file's folder " + dir + " is writable by " + writers(facts.dirMode()) + " (mode " + octal(facts.dirMode())
          + "), so " + ((facts.dirMode() & 002) != 0 ? "anyone" : "its members") + " could replace the file; run: chmod go-w " + dir;
    return null;
  }

  /** Who besides the owner may write with {@code mode}: "others" when anyone may, else "its group". */
  private static String writers(int mode) {
    return (mode & 002) != 0 ? "others" : "its group";
  }

  private static String octal(int mode) {
    return String.format("%04o", mode & 07777);
  }

  private static String parent(String file) {
    int slash = file.lastIndexOf('/');
    return slash > 0 ? file.substring(0, slash) : slash == 0 ? "/" : ".";
  }
}
