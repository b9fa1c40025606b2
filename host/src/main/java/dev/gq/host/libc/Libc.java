package dev.gq.host.libc;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * The few libc calls gq needs, through JNA: {@code kill}, {@code getpid}, {@code getuid}, and the
 * pidfd system calls (Linux 5.1 / 5.3) through {@code syscall()}. A failing call throws
 * {@link LastErrorException} carrying errno ({@link #ESRCH}, {@link #EPERM}, ...). Used by the
 * signalling code; stateless and thread-safe.
 */
public final class Libc {

  public static final int EPERM = 1;
  public static final int ESRCH = 3;
  public static final int EINVAL = 22;
  public static final int ENOSYS = 38;
  static final int PRIO_PROCESS = 0;

  // The same numbers on x86_64 and aarch64 (and every architecture but alpha, since Linux 5.1).
  static final long SYS_PIDFD_SEND_SIGNAL = 424;
  static final long SYS_PIDFD_OPEN = 434;

  /** The raw binding; C names verbatim. */
  interface C extends Library {
    int kill(int pid, int sig) throws LastErrorException;

    int getpid();

    int getuid();

    int close(int fd) throws LastErrorException;

    long syscall(long number, Object... args) throws LastErrorException;

    int setpriority(int which, int who, int prio) throws LastErrorException;

    int getpriority(int which, int who) throws LastErrorException;
  }

  private static final C C_LIB = Native.load("c", C.class);

  private Libc() {}

  /** kill(2): {@code pid} > 0 a process, {@code -pgid} a process group; signal 0 only checks. */
  public static void kill(long pid, int signal) throws LastErrorException {
    C_LIB.kill(Math.toIntExact(pid), signal);
  }

  public static int getpid() {
    return C_LIB.getpid();
  }

  public static int getuid() {
    return C_LIB.getuid();
  }

  /**
   * pidfd_open(2): a file descriptor that refers to the process now holding {@code pid}, and keeps
   * referring to it (never to a later process with the same PID). Close it with {@link #close}.
   */
  public static int pidfdOpen(long pid) throws LastErrorException {
    return Math.toIntExact(C_LIB.syscall(SYS_PIDFD_OPEN, pid, 0L));
  }

  /** pidfd_send_signal(2) with no siginfo and no flags; signal 0 only checks that it lives. */
  public static void pidfdSendSignal(int pidfd, int signal) throws LastErrorException {
    C_LIB.syscall(SYS_PIDFD_SEND_SIGNAL, (long) pidfd, (long) signal, null, 0L);
  }

  /**
   * Lowers the calling thread alone to nice value {@code nice} (setpriority(2) with PRIO_PROCESS and
   * who 0 names the calling thread on Linux, not the whole process). Lowering is always allowed.
   */
  public static void niceThisThread(int nice) throws LastErrorException {
    C_LIB.setpriority(PRIO_PROCESS, 0, nice);
  }

  /** The calling thread's nice value. */
  public static int threadNice() throws LastErrorException {
    return C_LIB.getpriority(PRIO_PROCESS, 0);
  }

  public static void close(int fd) throws LastErrorException {
    C_LIB.close(fd);
  }
}
