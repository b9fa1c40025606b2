package dev.gq.actors.cluster;

import dev.gq.core.cluster.ClusterCell;
import dev.gq.core.cluster.SbatchLines;
import dev.gq.core.cluster.SbatchScript;
import dev.gq.core.job.Job;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * The files of cluster jobs under {@code <data>/cluster}: each job's script and exit record in
 * {@code jobs/}, each sbatch call's batch script in {@code batch/}, and each array's links to its
 * jobs' logs in {@code arrays/<first job>/}. The data directory must be visible at the same path
 * on the cluster's nodes (a shared home), as the jobs' logs are.
 */
final class ClusterFiles {
  private final Path root;

  ClusterFiles(Path dataDir) {
    this.root = dataDir.resolve("cluster");
  }

  SbatchScript.Places places(List<ClusterCell> cells) {
    Path arrays = cells.size() > 1 ? root.resolve("arrays").resolve(String.valueOf(cells.get(0).jobId())) : null;
    return new SbatchScript.Places(root.resolve("jobs"), arrays);
  }

  /** Writes what {@code s} needs; returns the batch script's path. */
  Path write(List<ClusterCell> cells, SbatchScript.Submission s, SbatchScript.Places at) throws IOException {
    Path jobs = dir(at.jobDir());
    for (Map.Entry<Long, String> e : s.jobScripts().entrySet()) {
      Files.deleteIfExists(at.exit(e.getKey()));
      writePrivate(jobs.resolve(e.getKey() + ".sh"), e.getValue());
    }
    if (at.arrayDir() != null) {
      Path arrays = dir(at.arrayDir());
      for (Map.Entry<Integer, String> l : s.logLinks().entrySet()) {
        Path link = arrays.resolve(l.getKey() + ".log");
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, Path.of(l.getValue()));
      }
    }
    Path batch = dir(root.resolve("batch")).resolve(cells.get(0).jobId() + ".sh");
    writePrivate(batch, s.batchScript());
    return batch;
  }

  Path exitFile(long jobId) {
    return root.resolve("jobs").resolve(jobId + ".exit");
  }

  /** Job {@code j} as Slurm gets it, with the {@code #SBATCH} lines of its script when its program is one. */
  static ClusterCell cell(Job j) {
    return new ClusterCell(j.id(), j.spec(), j.logPath(), j.tag(), sbatchLines(j));
  }

  /** The {@code #SBATCH} lines of the job's script: its program, or what bash or sh runs ({@code gq submit}'s jobs). */
  static List<String> sbatchLines(Job j) {
    List<String> argv = j.spec().argv();
    if (argv.isEmpty()) return List.of();
    String shell = Path.of(argv.get(0)).getFileName().toString();
    String script = (shell.equals("bash") || shell.equals("sh")) && argv.size() > 1 && !argv.get(1).startsWith("-")
        ? argv.get(1) : argv.get(0);
    try {
      Path p = Path.of(j.spec().cwd()).resolve(script);
      if (!Files.isRegularFile(p) || Files.size(p) > 1 << 20) return List.of();
      byte[] head = Files.readAllBytes(p);
      return SbatchLines.of(new String(head, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /**
   * {@code d}, made with each missing directory from {@code <data>/cluster} down as 0700 whatever
   * the umask (the scripts in them hold the jobs' environments).
   */
  private Path dir(Path d) throws IOException {
    if (Files.isDirectory(d)) return d;
    if (!d.startsWith(root) || d.equals(root)) {
      Files.createDirectories(d.getParent());
    } else {
      dir(d.getParent());
    }
    try {
      Files.createDirectory(d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (FileAlreadyExistsException e) {
      if (Files.isDirectory(d)) return d; // made at the same moment by another pass
      throw e;
    }
    chmod(d, "rwx------"); // made at most 0700; a umask such as 0277 would leave it less
    return d;
  }

  /** Writes {@code text} to a new file {@code f} that only the user can read (0600, whatever the umask). */
  private static void writePrivate(Path f, String text) throws IOException {
    Files.deleteIfExists(f);
    Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    chmod(f, "rw-------");
    Files.writeString(f, text, StandardCharsets.UTF_8);
  }

  private static void chmod(Path p, String mode) throws IOException {
    try {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
    } catch (UnsupportedOperationException ignored) {
      // not a POSIX file system
    }
  }
}
