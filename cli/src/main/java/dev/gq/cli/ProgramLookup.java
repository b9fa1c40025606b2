package dev.gq.cli;

import dev.gq.core.job.PrintableText;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Whether a job's program can be found as the job will look for it, checked at submit so that a
 * typo is said while it is cheapest: a name without a slash is searched on the job's stored
 * {@code PATH} (as execvp does), a path is taken from the job's working directory. The job is
 * queued either way (the program may appear before it starts); this only warns.
 */
final class ProgramLookup {
  private ProgramLookup() {}

  /**
   * The warning for {@code program}, or null when the job would find it, or when a bare name cannot
   * be judged because the job has no {@code PATH} of its own.
   */
  static String missing(String program, String path, String cwd) {
    if (!program.contains("/") && path == null) return null;
    try {
      if (program.contains("/")) {
        Path p = Path.of(cwd).resolve(program);
        if (Files.isRegularFile(p) && Files.isExecutable(p)) return null;
        String what = Files.exists(p) ? "is not an executable file" : "does not exist";
        return PrintableText.escape(program) + " " + what + "; the job will fail with exit " + (Files.exists(p) ? 126 : 127)
            + " unless that changes before it starts";
      }
      for (String dir : path.split(":", -1)) {
        Path p = Path.of(dir.isEmpty() ? cwd : dir).resolve(program);
        if (Files.isRegularFile(p) && Files.isExecutable(p)) return null;
      }
    } catch (InvalidPathException | SecurityException e) {
      return null; // not a judgement gq can make; the job's start says what happens
    }
    return "no program '" + PrintableText.escape(program) + "' on the job's PATH; the job will fail with exit 127"
        + " unless it is installed before the job starts";
  }
}
