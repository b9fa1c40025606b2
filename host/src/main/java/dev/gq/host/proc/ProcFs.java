package dev.gq.host.proc;

import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@link ProcessTable} read from /proc, under a configurable root so that tests can point it
 * at a fixture tree. Every call reads afresh; a process that vanishes while being read counts as
 * absent, never as an error. The Reconciler, JobRunner and signalling read through it.
 */
public final class ProcFs implements ProcessTable {

  private final Path root;
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
    this.bootIdFile = bootIdFile;
  }

  @Override
  public Optional<ProcInfo> info(long pid) {
    try {
      byte[] stat = Files.readAllBytes(root.resolve(Long.toString(pid)).resolve("stat"));
      return Optional.of(ProcStat.parse(new String(stat, StandardCharsets.UTF_8)));
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

  @Override
  public List<ProcInfo> all() {
    List<ProcInfo> found = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, ProcFs::isPidDir)) {
      for (Path dir : dirs) info(Long.parseLong(dir.getFileName().toString())).ifPresent(found::add);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
    return found;
  }

  @Override
  public String bootId() {
    try {
      return Files.readString(bootIdFile).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the boot id from " + bootIdFile, e);
    }
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

  private static boolean isPidDir(Path dir) {
    String name = dir.getFileName().toString();
    if (name.isEmpty() || name.length() > 18) return false;
    for (int i = 0; i < name.length(); i++) {
      if (name.charAt(i) < '0' || name.charAt(i) > '9') return false;
    }
    return true;
  }
}
