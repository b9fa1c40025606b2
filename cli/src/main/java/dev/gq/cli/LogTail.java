package dev.gq.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a job's log from where it last stopped and writes the new bytes exactly as they are: a log
 * is whatever the job wrote, binary or in any encoding, and {@code gq logs > file} gives back the
 * same bytes. The file may not exist yet: a job writes its log only once it starts. The file is
 * opened through {@link GqApi#openLog}, which never waits on it and accepts only a regular file.
 * Not thread-safe; one per {@code gq logs} run.
 */
final class LogTail implements Closeable {
  private final Path path;
  private final GqApi api;
  private final ByteBuffer bytes = ByteBuffer.allocate(64 * 1024);
  private FileChannel channel;

  LogTail(Path path, GqApi api) {
    this.path = path;
    this.api = api;
  }

  /** Whether the log file exists (or was opened earlier). */
  boolean exists() {
    return channel != null || Files.exists(path);
  }

  /** Writes whatever was appended since the last call; returns whether anything was read. */
  boolean pump(OutputStream out) throws IOException, ApiException {
    if (channel == null && !open()) return false;
    boolean any = false;
    while (channel.read(bytes) > 0) {
      any = true;
      out.write(bytes.array(), 0, bytes.position());
      bytes.clear();
    }
    return any;
  }

  /** Reads to the end of what is there now. */
  void finish(OutputStream out) throws IOException, ApiException {
    pump(out);
  }

  private boolean open() throws IOException, ApiException {
    channel = api.openLog(path).orElse(null);
    return channel != null;
  }

  @Override
  public void close() throws IOException {
    if (channel != null) channel.close();
  }
}
