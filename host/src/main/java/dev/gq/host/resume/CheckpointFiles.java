package dev.gq.host.resume;

import dev.gq.core.resume.Checkpoints;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds a job's newest complete checkpoint on disk: one listing of the directory its checkpoints are
 * saved under ({@link Checkpoints#root}), then the {@code checkpoint-N} directories newest first
 * until one holds its {@code trainer_state.json}. Blocking; run off the actor threads. Nothing is
 * found in a directory that cannot be read.
 */
public final class CheckpointFiles {
  private CheckpointFiles() {}

  /** A complete checkpoint and when its state file was written ({@code dev.gq.core.end.EndReasons} words its age). */
  public record Found(Path dir, Instant saved) {}

  /** The newest complete checkpoint under {@code root}, if any. */
  public static Optional<Found> newest(Path root) {
    if (root == null) return Optional.empty();
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> d = Files.newDirectoryStream(root, "checkpoint-*")) {
      for (Path p : d) names.add(p.getFileName().toString());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    for (String n : Checkpoints.newestFirst(names)) {
      Path state = root.resolve(n).resolve(Checkpoints.COMPLETE);
      try {
        if (Files.isRegularFile(state)) return Optional.of(new Found(root.resolve(n), Files.getLastModifiedTime(state).toInstant()));
      } catch (IOException e) {
        // gone since the listing: try the next
      }
    }
    return Optional.empty();
  }

  /** The newest complete checkpoint of a job run as {@code argv} in {@code cwd}. */
  public static Optional<Found> newest(List<String> argv, String cwd) {
    return newest(Checkpoints.root(argv, cwd));
  }
}
