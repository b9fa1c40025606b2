package dev.gq.cli;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where {@code gq report --plot} writes: the path resolved against the caller's directory, refused
 * in one line before any work when its kind is not .png or .svg or its directory cannot take it.
 */
final class ReportFiles {
  private ReportFiles() {}

  static Path target(Path cwd, String text) {
    Path p;
    try {
      p = cwd.resolve(text).normalize();
    } catch (InvalidPathException e) {
      throw new UsageException("--plot needs a file name, not '" + text + "'");
    }
    if (kind(p) == null)
      throw new UsageException("cannot plot to " + p.getFileName() + ": give a file ending in .png or .svg");
    Path dir = p.getParent();
    if (dir == null || !Files.isDirectory(dir))
      throw new RefusedException("cannot write " + p + ": the directory " + dir + " does not exist; create it or choose another path");
    if (Files.isDirectory(p)) throw new RefusedException("cannot write " + p + ": it is a directory; choose a file name");
    if (Files.exists(p) ? !Files.isWritable(p) : !Files.isWritable(dir))
      throw new RefusedException("cannot write " + p + ": permission denied; choose another path");
    return p;
  }

  /** "png" or "svg" by the file's ending (any case); null for any other. */
  static String kind(Path p) {
    String name = p.getFileName() == null ? "" : p.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".png") && name.length() > 4) return "png";
    if (name.endsWith(".svg") && name.length() > 4) return "svg";
    return null;
  }
}
