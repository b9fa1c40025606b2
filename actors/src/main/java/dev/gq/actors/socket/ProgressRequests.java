package dev.gq.actors.socket;

import dev.gq.core.job.Job;
import dev.gq.core.progress.Estimate;
import dev.gq.core.progress.Estimator;
import dev.gq.core.progress.LogTail;
import dev.gq.core.progress.LogWindow;
import dev.gq.core.progress.TrainerState;
import dev.gq.core.resume.Checkpoints;
import dev.gq.host.fs.RegularFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Reads what running jobs left behind for {@code gq eta}, {@code gq ps} and {@code gq show}: each
 * job's progress file ({@code run/ID.progress}), the last {@link LogTail#MAX_BYTES} of its log (a
 * log that only grew since the last reading is read and parsed from where that one stopped: see
 * {@link LogWindow}) and
 * the newest complete {@code checkpoint-N/trainer_state.json} under its {@code --output_dir} (or
 * {@code --output-dir}) or its working directory, each opened only as a regular file, never through
 * a symbolic link, and hands them to {@link Estimator}. A job whose files have not changed since its
 * last reading (the log's and the progress file's size and time, the checkpoint directory's own
 * time, the candidate states' size and time: a few stats) gets that reading again without a byte
 * read or a directory listed; the directory is listed again only when its time changed (a new or
 * removed {@code checkpoint-N} changes it) or changed too recently to be trusted. Each running
 * job's {@link Estimator.Memory} is kept here; a job no longer running is forgotten at the next
 * request.
 */
final class ProgressRequests {
  /** How many jobs are remembered at most (running jobs; a safety bound). */
  static final int MAX_JOBS = 4096;
  private static final int MAX_PROGRESS_BYTES = 256;
  private static final int MAX_TRAINER_STATE_BYTES = 16 << 20;
  private static final int MAX_LISTED = 10_000;
  private static final int CHECKPOINTS_TRIED = 3;

  /** How close to the listing a directory's time may be before it is listed again (coarse file system clocks). */
  static final Duration RACY = Duration.ofSeconds(2);

  /**
   * What identifies the files read for one job: a change to any of them means reading again. The
   * checkpoint root's stamp and the stamps of its candidate states (the newest few
   * {@code checkpoint-N/trainer_state.json}, in {@code candidates} order).
   */
  record Key(FileStamp log, FileStamp progress, FileStamp root, List<Path> candidates, List<FileStamp> states) {}

  /** Lists the names in a directory, at most {@code max}; a seam so a test can count listings. */
  interface Lister {
    List<String> names(Path dir, int max) throws IOException;
  }

  /** A file's size and modification time (nanoseconds), or ABSENT. */
  record FileStamp(long size, long mtime) {
    static final FileStamp ABSENT = new FileStamp(-1, -1);
  }

  /** A job's last reading: what it read ({@code racy}: the root changed too recently to skip a listing), and what came of it. */
  private record Entry(Key key, boolean racy, Checkpoint used, LogWindow window, Estimate estimate, Estimator.Memory memory) {}

  private final Path runDir;
  private final Clock clock;
  private final Lister lister;
  private final Map<Long, Entry> entries = new ConcurrentHashMap<>();

  ProgressRequests(Path runDir, Clock clock) {
    this(runDir, clock, ProgressRequests::list);
  }

  ProgressRequests(Path runDir, Clock clock, Lister lister) {
    this.runDir = runDir;
    this.clock = clock;
    this.lister = lister;
  }

  /**
   * The estimate of each job of {@code asked} that is among {@code running} and has one. Forgets
   * every job not in {@code running}. One reading at a time, so each job's memory moves in order.
   */
  synchronized Map<Long, Estimate> estimates(Collection<Long> asked, List<Job> running) {
    Set<Long> live = running.stream().map(Job::id).collect(Collectors.toSet());
    entries.keySet().retainAll(live);
    if (entries.size() > MAX_JOBS) entries.clear();
    Set<Long> wanted = Set.copyOf(asked);
    Map<Long, Estimate> out = new HashMap<>();
    for (Job j : running) {
      if (!wanted.contains(j.id())) continue;
      Estimate e = estimate(j);
      if (e != null) out.put(j.id(), e);
    }
    return out;
  }

  private Estimate estimate(Job j) {
    Path log = j.logPath() == null ? null : Path.of(j.logPath());
    Path progress = runDir.resolve(j.id() + ".progress");
    Entry before = entries.get(j.id());
    Path root = checkpointRoot(j);
    FileStamp rootStamp = dirStamp(root);
    // the cheap check first: stats only; the directory is listed when its own time moved
    boolean listed = before == null || before.racy() || !before.key().root().equals(rootStamp);
    List<Path> candidates = listed ? candidates(root) : before.key().candidates();
    Key key = new Key(stamp(log), stamp(progress), rootStamp, candidates, candidates.stream().map(ProgressRequests::stamp).toList());
    boolean racy = listed && rootStamp.mtime() > clock.instant().minus(RACY).toEpochMilli() * 1_000_000L;
    if (before != null && before.key().equals(key)) {
      if (racy != before.racy()) entries.put(j.id(), new Entry(key, racy, before.used(), before.window(), before.estimate(), before.memory()));
      return before.estimate();
    }
    Checkpoint ckpt = checkpoint(key, before == null ? Checkpoint.NONE : before.used());
    Estimator.Memory memory = before == null ? Estimator.Memory.EMPTY : before.memory();
    LogWindow window = LogWindow.EMPTY;
    if (log != null && !key.log().equals(FileStamp.ABSENT)) {
      // a log that only grew is parsed from where the previous reading stopped
      LogWindow was = before == null ? LogWindow.EMPTY : before.window();
      long from = was.readFrom(key.log().size());
      byte[] bytes = read(log, from, LogWindow.MAX_BYTES);
      if (bytes != null) window = was.advance(bytes, from);
    }
    String progressText = key.progress().equals(FileStamp.ABSENT) ? null : text(progress, MAX_PROGRESS_BYTES);
    String stateText = ckpt.text() != null || ckpt.path() == null ? ckpt.text() : text(ckpt.path(), MAX_TRAINER_STATE_BYTES);
    Estimator.Result r = Estimator.estimate(new Estimator.Inputs(progressText, window == LogWindow.EMPTY ? null : window, stateText), memory, clock.instant());
    entries.put(j.id(), new Entry(key, racy, new Checkpoint(ckpt.path(), ckpt.stamp(), null), window, r.estimate(), r.memory()));
    return r.estimate();
  }

  /** Where a job's checkpoints are ({@link Checkpoints#root}). */
  static Path checkpointRoot(Job j) {
    return Checkpoints.root(j.spec().argv(), j.spec().cwd());
  }

  /** A checkpoint's {@code trainer_state.json}: where, its stamp, and its text when it was read to check it (null otherwise). */
  record Checkpoint(Path path, FileStamp stamp, String text) {
    static final Checkpoint NONE = new Checkpoint(null, FileStamp.ABSENT, null);
  }

  /**
   * The {@code trainer_state.json} paths of the few newest {@code checkpoint-N} directories under
   * {@code root}, newest first (one listing of it), or none.
   */
  List<Path> candidates(Path root) {
    // the directory may be a link (an output directory on a scratch disk); the files in it are not followed
    if (root == null || !Files.isDirectory(root)) return List.of();
    List<String> names;
    try {
      names = lister.names(root, MAX_LISTED);
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    return Checkpoints.newestFirst(names).stream().limit(CHECKPOINTS_TRIED)
        .map(n -> root.resolve(n).resolve(Checkpoints.COMPLETE)).toList();
  }

  /**
   * The newest complete state among {@code key}'s candidates (a half-written or missing one
   * skipped), or NONE. A state the previous reading {@code used} and that has not changed since is
   * taken without reading it again.
   */
  static Checkpoint checkpoint(Key key, Checkpoint used) {
    for (int i = 0; i < key.candidates().size(); i++) {
      Path state = key.candidates().get(i);
      FileStamp stamp = key.states().get(i);
      if (stamp.equals(FileStamp.ABSENT)) continue;
      if (state.equals(used.path()) && stamp.equals(used.stamp())) return new Checkpoint(state, stamp, null);
      String text = text(state, MAX_TRAINER_STATE_BYTES);
      if (TrainerState.parse(text) != null) return new Checkpoint(state, stamp, text);
    }
    return Checkpoint.NONE;
  }

  /** Up to {@code max} names in {@code dir}. */
  static List<String> list(Path dir, int max) throws IOException {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        if (names.size() >= max) break;
        names.add(p.getFileName().toString());
      }
    }
    return names;
  }

  /** The time of {@code dir} (through a link: an output directory may be one) when it is a directory; else ABSENT. */
  static FileStamp dirStamp(Path dir) {
    if (dir == null) return FileStamp.ABSENT;
    try {
      BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class);
      return a.isDirectory() ? new FileStamp(0, nanos(a)) : FileStamp.ABSENT;
    } catch (IOException | RuntimeException e) {
      return FileStamp.ABSENT;
    }
  }

  /** {@code p}'s size and time when it is a regular file (not a link); else ABSENT. */
  static FileStamp stamp(Path p) {
    if (p == null) return FileStamp.ABSENT;
    try {
      BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!a.isRegularFile()) return FileStamp.ABSENT;
      return new FileStamp(a.size(), nanos(a));
    } catch (IOException | RuntimeException e) {
      return FileStamp.ABSENT;
    }
  }

  private static long nanos(BasicFileAttributes a) {
    Instant t = a.lastModifiedTime().toInstant();
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  /** The whole of {@code p} as UTF-8 when it is a regular file of at most {@code max} bytes; else null. */
  static String text(Path p, int max) {
    byte[] b = read(p, 0, max + 1);
    return b == null || b.length > max ? null : new String(b, StandardCharsets.UTF_8);
  }

  /** Up to {@code max} bytes of {@code p} from {@code from}, opened as a regular file only; null when it cannot be. */
  static byte[] read(Path p, long from, int max) {
    try (FileChannel ch = RegularFiles.openForReading(p)) {
      ByteBuffer buf = ByteBuffer.allocate((int) Math.max(0, Math.min(max, ch.size() - from)));
      while (buf.hasRemaining() && ch.read(buf, from + buf.position()) > 0) {}
      return Arrays.copyOf(buf.array(), buf.position());
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
