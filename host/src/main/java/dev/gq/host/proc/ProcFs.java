package dev.gq.host.proc;

import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessTable;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link ProcessTable} read from /proc, under a configurable root so that tests can point it
 * at a fixture tree. Every call reads afresh; a process that vanishes while being read counts as
 * absent, never as an error. The Reconciler, JobRunner and signalling read through it.
 */
public final class ProcFs implements ProcessTable {

  // A stat line is a few hundred bytes; a longer one is read on past the buffer.
  private static final int STAT_BYTES = 1024;
  /** A first read of an environment; a larger one grows the buffer. */
  private static final int ENVIRON_BYTES = 8192;

  private final Path root;
  private final String rootPath;
  private final Path bootIdFile;

  /** The real /proc. */
  public ProcFs() {
    this(Path.of("/proc"));
  }

  /** A /proc tree at {@code root}, with the boot id at {@code root/sys/kernel/random/boot_id}. */
  public ProcFs(Path root) {
    this(root, root.resolve("sys/kernel/random/boot_id"));
  }

  public ProcFs(Path root, Path bootIdFile) {
    this.root = root;
    this.rootPath = root.toString();
    this.bootIdFile = bootIdFile;
  }

  @Override
  public Optional<ProcInfo> info(long pid) {
    return stat(rootPath + "/" + pid + "/stat", new byte[STAT_BYTES]);
  }

  /**
   * Reads one stat file into {@code buf} (reused across a scan) with a plain FileInputStream: a scan
   * reads hundreds of them, and NIO's per-file set-up or readAllBytes' buffers cost more than the read.
   */
  private static Optional<ProcInfo> stat(String path, byte[] buf) {
    try (FileInputStream in = new FileInputStream(path)) {
      int n = in.readNBytes(buf, 0, buf.length);
      if (n < buf.length) return Optional.of(ProcStat.parse(new String(buf, 0, n, StandardCharsets.UTF_8)));
      byte[] rest = in.readAllBytes();
      byte[] whole = Arrays.copyOf(buf, n + rest.length);
      System.arraycopy(rest, 0, whole, n, rest.length);
      return Optional.of(ProcStat.parse(new String(whole, StandardCharsets.UTF_8)));
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty(); // gone, hidden, or caught half-way through its exit
    }
  }

  @Override
  public Optional<String> environ(long pid, String name) {
    byte[] environ;
    try {
      environ = Files.readAllBytes(root.resolve(Long.toString(pid)).resolve("environ"));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    String prefix = name + "=";
    for (String entry : new String(environ, StandardCharsets.UTF_8).split("\0")) {
      if (entry.startsWith(prefix)) return Optional.of(entry.substring(prefix.length()));
    }
    return Optional.empty();
  }

  /** A process's environment as read: {@code length} bytes of {@code bytes} (NUL-separated entries). */
  private record Environ(byte[] bytes, int length) {}

  /**
   * Reads /proc/PID/environ into {@code buffer} (grown when it fills; plain reads: readAllBytes would
   * also ask the file's size and position, two system calls more for each of the machine's
   * processes at every job's end); null when the process is gone or its environment unreadable.
   */
  private Environ environ(long pid, byte[] buffer) {
    int length = 0;
    try (FileInputStream in = new FileInputStream(rootPath + "/" + pid + "/environ")) {
      for (int n; (n = in.read(buffer, length, buffer.length - length)) > 0; ) {
        length += n;
        if (length == buffer.length) buffer = Arrays.copyOf(buffer, length * 2);
      }
    } catch (IOException e) {
      return null;
    }
    return new Environ(buffer, length);
  }

  /** As {@link #carries}, a plain read of each process's environment, decoding only the entries named {@code name}. */
  @Override
  public Set<String> valuesCarried(String name, long except) {
    byte[] prefix = (name + "=").getBytes(StandardCharsets.UTF_8);
    Set<String> out = new HashSet<>();
    byte[] buffer = new byte[ENVIRON_BYTES];
    for (long pid : pids()) {
      if (pid == except) continue;
      Environ env = environ(pid, buffer);
      if (env == null) continue; // gone, or another user's
      buffer = env.bytes();
      int length = env.length();
      for (int at = 0; at < length; ) {
        int end = at;
        while (end < length && buffer[end] != 0) end++;
        if (end - at >= prefix.length && Arrays.equals(buffer, at, at + prefix.length, prefix, 0, prefix.length))
          out.add(new String(buffer, at + prefix.length, end - at - prefix.length, StandardCharsets.UTF_8));
        at = end + 1;
      }
    }
    return out;
  }

  /**
   * Looks for the bytes {@code name=value} as a whole entry of the environment, without decoding it:
   * a job's end reads the environment of every process, so this stays a plain read and a byte search.
   */
  @Override
  public boolean carries(long pid, String name, String value) {
    Environ env = environ(pid, new byte[ENVIRON_BYTES]);
    if (env == null) return false; // gone, or another user's
    byte[] environ = env.bytes();
    int length = env.length();
    byte[] entry = (name + "=" + value).getBytes(StandardCharsets.UTF_8);
    for (int at = 0; at + entry.length <= length; ) {
      if (Arrays.equals(environ, at, at + entry.length, entry, 0, entry.length)
          && (at + entry.length == length || environ[at + entry.length] == 0)) return true;
      int end = at;
      while (end < length && environ[end] != 0) end++;
      at = end + 1;
    }
    return false;
  }

  @Override
  public List<ProcInfo> all() {
    String[] names = new File(rootPath).list();
    if (names == null) throw new UncheckedIOException(new IOException("cannot list " + root));
    List<ProcInfo> found = new ArrayList<>(names.length);
    byte[] buf = new byte[STAT_BYTES];
    for (String name : names) {
      if (isPid(name)) stat(rootPath + "/" + name + "/stat", buf).ifPresent(found::add);
    }
    return found;
  }

  @Override
  public Set<Long> pids() {
    String[] names = new File(rootPath).list();
    if (names == null) throw new UncheckedIOException(new IOException("cannot list " + root));
    Set<Long> pids = new HashSet<>(names.length * 2);
    for (String name : names) {
      if (isPid(name)) pids.add(Long.parseLong(name));
    }
    return pids;
  }

  @Override
  public String bootId() {
    try {
      return Files.readString(bootIdFile).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the boot id from " + bootIdFile, e);
    }
  }

  @Override
  public long uid(long pid) {
    return ProcDetails.read(root.resolve(pid + "/status")).map(ProcDetails::uid).orElse(-1L);
  }

  @Override
  public List<String> cmdline(long pid) {
    try {
      return ProcDetails.argv(Files.readAllBytes(root.resolve(pid + "/cmdline")));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  @Override
  public Optional<String> cwd(long pid) {
    return ProcDetails.link(root.resolve(pid + "/cwd"));
  }

  @Override
  public Optional<String> stdoutFile(long pid) {
    return ProcDetails.regularFile(root.resolve(pid + "/fd/1"));
  }

  @Override
  public List<String> openFiles(long pid) {
    List<String> out = new ArrayList<>();
    try (var fds = Files.newDirectoryStream(root.resolve(pid + "/fd"))) {
      for (Path fd : fds) {
        try {
          out.add(Files.readSymbolicLink(fd).toString());
        } catch (IOException | RuntimeException e) {
          // closed meanwhile
        }
      }
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    return out;
  }

  @Override
  public Optional<Instant> startTime(ProcInfo p) {
    long boot = ProcDetails.read(root.resolve("stat")).map(ProcDetails::bootTime).orElse(-1L);
    return boot < 0 ? Optional.empty() : Optional.of(ProcDetails.started(boot, p.startTicks()));
  }

  /**
   * The live processes of a job: those in process group {@code pgid} or in session {@code sid}.
   * Zombies count as gone. A job has ended when its shim has exited and this list is empty.
   */
  public List<ProcInfo> members(long pgid, long sid) {
    return all().stream()
        .filter(p -> !p.zombie() && (p.pgid() == pgid || p.sid() == sid))
        .toList();
  }

  private static boolean isPid(String name) {
    if (name.isEmpty() || name.length() > 18) return false;
    for (int i = 0; i < name.length(); i++) {
      if (name.charAt(i) < '0' || name.charAt(i) > '9') return false;
    }
    return true;
  }
}
