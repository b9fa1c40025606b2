package dev.gq.protocol;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Whether a directory may hold gq's socket, database, logs and the environments of jobs: it must be
 * a directory owned by the user running gq, writable by nobody else. Another user who owns (or can
 * write) the runtime directory could listen on the socket and receive every command's environment;
 * one who owns the data directory could plant links where job output is written. The client and the
 * daemon both check, before anything is sent or opened; {@link #problem} is the rule, pure.
 */
public final class PrivateDirectory {
  private static final int GROUP_OR_OTHER_WRITE = 0022;
  private static final Path PROC_SELF = Path.of("/proc/self");

  private PrivateDirectory() {}

  /**
   * What is wrong with directory {@code dir} owned by {@code ownerUid} with permission bits
   * {@code mode}, for the user {@code myUid}, in one line naming it ({@code what}) and the setting
   * that moves it, or null.
   */
  public static String problem(String what, String setting, Path dir, int ownerUid, int mode, int myUid) {
    if (ownerUid != myUid) {
      return what + " " + dir + " belongs to uid " + ownerUid + ", not to you (uid " + myUid
          + "), and its owner could read what gq keeps there; set " + setting + " to a directory of your own";
    }
    if ((mode & GROUP_OR_OTHER_WRITE) != 0) {
      return what + " " + dir + " can be written by other users (mode " + octal(mode)
          + "); run 'chmod go-w " + dir + "', or set " + setting + " to a private directory";
    }
    return null;
  }

  /**
   * Checks {@code dir} when it exists (a missing one gq creates itself, 0700); returns the one-line
   * problem, or null. With {@code noFollow}, a symbolic link in its place is a problem too.
   */
  public static String check(String what, String setting, Path dir, boolean noFollow) {
    LinkOption[] opts = noFollow ? new LinkOption[] {LinkOption.NOFOLLOW_LINKS} : new LinkOption[0];
    Map<String, Object> attrs;
    try {
      attrs = Files.readAttributes(dir, "unix:uid,mode", opts);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | UnsupportedOperationException e) {
      return "cannot check " + what + " " + dir + ": " + e.getMessage() + "; set " + setting + " to a directory of your own";
    }
    int mode = (Integer) attrs.get("mode");
    if ((mode & 0170000) != 0040000) {
      return what + " " + dir + " is not a directory" + (noFollow ? " (a symbolic link is not accepted there)" : "")
          + "; remove it, or set " + setting + " to a directory of your own";
    }
    return problem(what, setting, dir, (Integer) attrs.get("uid"), mode & 07777, myUid());
  }

  /** The effective uid of this process: /proc/self belongs to it. */
  public static int myUid() {
    try {
      return (Integer) Files.getAttribute(PROC_SELF, "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      throw new IllegalStateException("cannot read the owner of /proc/self: " + e.getMessage(), e);
    }
  }

  /** The first problem with gq's data and runtime directories, named by their settings, or null. */
  public static String checkBoth(GqPaths paths) {
    String p = check("the data directory", "GQ_DATA_DIR", paths.dataDir(), false);
    return p != null ? p : check("the runtime directory", "GQ_RUNTIME_DIR", paths.runtimeDir(), false);
  }

  private static String octal(int mode) {
    String s = Integer.toOctalString(mode & 07777);
    return "0000".substring(Math.min(4, s.length())) + s;
  }
}
