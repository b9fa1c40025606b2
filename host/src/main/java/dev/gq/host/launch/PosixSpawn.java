package dev.gq.host.launch;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.StringArray;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Starts a process straight from the daemon with the C library's posix_spawn, as a session leader
 * (POSIX_SPAWN_SETSID), every signal at its default and none blocked, in a given directory, stdin
 * from /dev/null and stdout+stderr appended to one file. The JDK's ProcessBuilder would first exec
 * a helper (jspawnhelper) that then execs the program: one exec more on every job's launch. The
 * caller reaps the child ({@link #waitFor}). {@link #AVAILABLE} is false on a C library without
 * the needed calls (glibc before 2.29), where the launcher falls back to ProcessBuilder.
 */
final class PosixSpawn {

  // Flags and open(2) modes, the same on every Linux architecture gq runs on (x86_64, aarch64),
  // but O_NOFOLLOW.
  private static final short POSIX_SPAWN_SETSIGDEF = 0x04;
  private static final short POSIX_SPAWN_SETSIGMASK = 0x08;
  /** SIGHUP, SIGINT, SIGTERM: what the shim handles (Linux numbers). */
  private static final int[] STOP_SIGNALS = {1, 2, 15};
  private static final short POSIX_SPAWN_SETSID = 0x80;
  private static final int O_RDONLY = 0;
  private static final int O_WRONLY = 01;
  private static final int O_CREAT = 0100;
  private static final int O_APPEND = 02000;
  /** The one flag here whose value differs by architecture: a log replaced by a link is not opened. */
  private static final int O_NOFOLLOW = "aarch64".equals(System.getProperty("os.arch")) ? 0100000 : 0400000;
  private static final int EINTR = 4;
  private static final int F_DUPFD_CLOEXEC = 1030;

  // Opaque C types, given more room than any C library uses (glibc: 80, 336 and 128 bytes).
  private static final int ACTIONS_BYTES = 256;
  private static final int ATTR_BYTES = 1024;
  private static final int SIGSET_BYTES = 256;

  /** The raw binding; C names verbatim. The posix_spawn calls return an errno, never set it. */
  interface C extends Library {
    int posix_spawn(int[] pid, String path, Pointer actions, Pointer attr, StringArray argv, StringArray envp);

    int posix_spawn_file_actions_init(Pointer actions);

    int posix_spawn_file_actions_destroy(Pointer actions);

    int posix_spawn_file_actions_addopen(Pointer actions, int fd, String path, int oflag, int mode);

    int posix_spawn_file_actions_adddup2(Pointer actions, int fd, int newfd);

    int posix_spawn_file_actions_addchdir_np(Pointer actions, String path);

    int posix_spawnattr_init(Pointer attr);

    int posix_spawnattr_destroy(Pointer attr);

    int posix_spawnattr_setflags(Pointer attr, short flags);

    int posix_spawnattr_setsigmask(Pointer attr, Pointer sigset);

    int posix_spawnattr_setsigdefault(Pointer attr, Pointer sigset);

    int sigemptyset(Pointer set);

    int sigfillset(Pointer set);

    int sigaddset(Pointer set, int signum);

    int waitpid(int pid, int[] status, int options) throws LastErrorException;

    int fcntl(int fd, int cmd, int arg) throws LastErrorException;

    int close(int fd);

    String strerror(int errnum);
  }

  private static final C C_LIB = load();

  /** Whether this C library has everything a spawn needs. */
  static final boolean AVAILABLE = C_LIB != null;

  private PosixSpawn() {}

  private static C load() {
    try {
      C c = Native.load("c", C.class);
      // Looked up now, so that a C library without it is found out before any job is launched.
      NativeLibrary.getInstance("c").getFunction("posix_spawn_file_actions_addchdir_np");
      return c;
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      return null;
    }
  }

  /**
   * Starts {@code argv} (argv[0] is the program's path) and returns its pid once it has been
   * exec'd; throws {@link SpawnException} with the reason when it could not be. The child gets
   * {@code keep}'s descriptors as 3, 4, ... (open in the child, closed on exec nowhere).
   */
  static int spawn(List<String> argv, Map<String, String> env, Path cwd, Path output, List<Integer> keep)
      throws SpawnException {
    // Copies numbered past the targets first: dup2 onto itself would leave close-on-exec set.
    int[] from = new int[keep.size()];
    try {
      for (int i = 0; i < from.length; i++) from[i] = C_LIB.fcntl(keep.get(i), F_DUPFD_CLOEXEC, 3 + keep.size());
    } catch (LastErrorException e) {
      for (int fd : from) if (fd > 0) C_LIB.close(fd);
      throw new SpawnException("cannot pass the GPU leases on: " + C_LIB.strerror(e.getErrorCode()));
    }
    try {
      return spawn(argv, env, cwd, output, from);
    } finally {
      for (int fd : from) C_LIB.close(fd);
    }
  }

  private static int spawn(List<String> argv, Map<String, String> env, Path cwd, Path output, int[] keep)
      throws SpawnException {
    Memory actions = new Memory(ACTIONS_BYTES);
    Memory attr = new Memory(ATTR_BYTES);
    Memory sigset = new Memory(SIGSET_BYTES);
    check("posix_spawn_file_actions_init", C_LIB.posix_spawn_file_actions_init(actions));
    try {
      check("posix_spawnattr_init", C_LIB.posix_spawnattr_init(attr));
      try {
        check("addchdir", C_LIB.posix_spawn_file_actions_addchdir_np(actions, cwd.toString()));
        check("addopen", C_LIB.posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0));
        check("addopen", C_LIB.posix_spawn_file_actions_addopen(actions, 1, output.toString(),
            O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0600));
        check("adddup2", C_LIB.posix_spawn_file_actions_adddup2(actions, 1, 2));
        for (int i = 0; i < keep.length; i++)
          check("adddup2", C_LIB.posix_spawn_file_actions_adddup2(actions, keep[i], 3 + i));
        C_LIB.sigfillset(sigset);
        check("setsigdefault", C_LIB.posix_spawnattr_setsigdefault(attr, sigset));
        // the shim starts with its stop signals blocked: one sent before its handlers are in place
        // waits for them (the shim passes it on to the job), instead of killing it unrecorded
        C_LIB.sigemptyset(sigset);
        for (int sig : STOP_SIGNALS) C_LIB.sigaddset(sigset, sig);
        check("setsigmask", C_LIB.posix_spawnattr_setsigmask(attr, sigset));
        check("setflags", C_LIB.posix_spawnattr_setflags(attr,
            (short) (POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)));
        int[] pid = new int[1];
        String[] envp = env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        int rc = C_LIB.posix_spawn(pid, argv.get(0), actions, attr,
            new StringArray(argv.toArray(String[]::new), StandardCharsets.UTF_8.name()),
            new StringArray(envp, StandardCharsets.UTF_8.name()));
        if (rc != 0) throw new SpawnException(C_LIB.strerror(rc));
        return pid[0];
      } finally {
        C_LIB.posix_spawnattr_destroy(attr);
      }
    } finally {
      C_LIB.posix_spawn_file_actions_destroy(actions);
    }
  }

  /** Blocks until child {@code pid} has exited, and reaps it. */
  static Integer waitFor(int pid) {
    int[] status = new int[1];
    while (true) {
      try {
        C_LIB.waitpid(pid, status, 0);
        // WIFEXITED: its exit status; killed by a signal: none
        return (status[0] & 0x7f) == 0 ? (status[0] >> 8) & 0xff : null;
      } catch (LastErrorException e) {
        if (e.getErrorCode() != EINTR) return null; // ECHILD: already reaped; nothing else can happen
      }
    }
  }

  private static void check(String call, int rc) throws SpawnException {
    if (rc != 0) throw new SpawnException(call + ": " + C_LIB.strerror(rc));
  }

  /** A spawn that did not happen, with the C library's reason. */
  static final class SpawnException extends Exception {
    SpawnException(String message) {
      super(message);
    }
  }
}
