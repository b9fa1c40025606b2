package dev.gq.web;

import dev.gq.core.gpu.GpuStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * dcgm-exporter's job mapping ({@code --hpc-job-mapping-dir}): in one folder, a file per GPU named
 * by its index, holding the jobs on that GPU one a line (this user's by id, another user's as
 * {@code USER/ID}), empty while none holds it. A file is rewritten only when its jobs change, and
 * always whole: written under a fresh name in the folder (created anew, never opened through a
 * link) and renamed over the old one, so a reader sees the old or the new, never half. Readable by
 * all (0644), as dcgm-exporter runs as another user.
 */
final class JobMapping implements AutoCloseable {
  /** How {@code LeaseHolder.describe} names another user's job: "alice's job 12". */
  private static final Pattern OTHER = Pattern.compile("([^\\s']+)'s job ([0-9]+)(?: .*)?");

  private final Path dir;
  private final Map<Integer, String> written = new HashMap<>();

  private JobMapping(Path dir) {
    this.dir = dir;
  }

  /** The mapping in {@code dir}, a folder (not a link) this user can write; refused in one line otherwise. */
  static JobMapping in(Path dir) {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS))
      throw new IllegalArgumentException("the job mapping folder " + dir + " is not a folder (or is a link); make it with mkdir -p " + dir);
    if (!Files.isWritable(dir)) throw new IllegalArgumentException("the job mapping folder " + dir + " is not writable by this user; chown or chmod it");
    return new JobMapping(dir);
  }

  Path dir() {
    return dir;
  }

  /** The jobs on {@code g}, one a line: this user's by id, another gq's as USER/ID. */
  static List<String> jobs(GpuStatus g) {
    Set<String> jobs = new LinkedHashSet<>();
    if (!g.shares().isEmpty()) for (GpuStatus.Share s : g.shares()) jobs.add(Long.toString(s.jobId()));
    else if (g.ownerJobId() != null) jobs.add(Long.toString(g.ownerJobId()));
    List<String> others = new ArrayList<>();
    if (g.heldBy() != null) others.add(g.heldBy());
    for (GpuStatus.Other o : g.others()) others.add(o.holder());
    for (String holder : others) {
      Matcher m = OTHER.matcher(holder);
      if (m.matches()) jobs.add(m.group(1) + "/" + m.group(2));
    }
    return List.copyOf(jobs);
  }

  /** Rewrites the file of each GPU whose jobs changed since the last write (each file at the first). */
  synchronized void write(List<GpuStatus> gpus) throws IOException {
    for (GpuStatus g : gpus) {
      StringBuilder sb = new StringBuilder();
      for (String job : jobs(g)) sb.append(job).append('\n');
      String text = sb.toString();
      if (!text.equals(written.get(g.index()))) {
        replace(Integer.toString(g.index()), text);
        written.put(g.index(), text);
      }
    }
  }

  private void replace(String name, String text) throws IOException {
    Path tmp = Files.createTempFile(dir, ".gq-" + name + "-", ".tmp", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
    try {
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Empties every file written: once the page stops, nobody keeps them true. */
  @Override
  public synchronized void close() {
    for (Integer index : written.keySet()) {
      try {
        replace(Integer.toString(index), "");
      } catch (IOException e) {
        // the folder went away or turned read-only: nothing left to keep true
      }
    }
    written.clear();
  }
}
