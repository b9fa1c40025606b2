package dev.gq.host.launch;

import dev.gq.core.launch.ExitRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads the exit files the shim writes ({@code <data>/run/<id>.exit}, one line: {@code exit N},
 * {@code signal N} or {@code exec-error TEXT}). The shim renames a complete file into place, so a
 * file is either whole or absent; anything else found there (a symbolic link included: it is never
 * followed) is treated as absent. Never throws.
 * A second line {@code alone} says the job left no process behind ({@link #leftNothing}).
 */
public final class ExitFiles {

  // A record is one short line; more than this is not a file the shim wrote.
  private static final int MAX_BYTES = 4096;

  private ExitFiles() {}

  /** The record in {@code exitFile}, or empty when it is missing, unreadable or not a record. */
  public static Optional<ExitRecord> read(Path exitFile) {
    return content(exitFile).flatMap(ExitRecord::parse);
  }

  /** Whether {@code exitFile} holds a record that says the job left no process behind. */
  public static boolean leftNothing(Path exitFile) {
    return content(exitFile).map(ExitRecord::leftNothing).orElse(false);
  }

  /** The file's text when it is there, readable and no longer than a record can be. */
  public static Optional<String> content(Path exitFile) {
    try (InputStream in = Files.newInputStream(exitFile, LinkOption.NOFOLLOW_LINKS)) {
      byte[] content = in.readNBytes(MAX_BYTES + 1);
      if (content.length > MAX_BYTES) return Optional.empty();
      return Optional.of(new String(content, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
