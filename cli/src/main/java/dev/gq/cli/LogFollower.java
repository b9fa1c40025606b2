package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
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
final class LogFollower implements Closeable {
  private final Path path;
  private final GqApi api;
  private final ByteBuffer bytes = ByteBuffer.allocate(64 * 1024);
  private FileChannel channel;

  LogFollower(Path path, GqApi api) {
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

  /**
   * Moves to the start of the last {@code n} lines of what the file holds now, as {@code tail -n}
   * counts them (a last line without a newline is a line); nothing happens when there is no file.
   */
  void lastLines(long n) throws IOException, ApiException {
    if (channel == null && !open()) return;
    channel.position(startOfLastLines(channel, n));
  }

  /** The offset where the last {@code n} lines of {@code ch} begin, read backwards from its end. */
  static long startOfLastLines(FileChannel ch, long n) throws IOException {
    long end = ch.size();
    if (n <= 0) return end;
    ByteBuffer block = ByteBuffer.allocate(64 * 1024);
    long newlines = 0;
    for (long pos = end; pos > 0; ) {
      int len = (int) Math.min(block.capacity(), pos);
      pos -= len;
      block.clear().limit(len);
      // a positional read may return fewer bytes than asked: read on until the block is full
      int got;
      do got = ch.read(block, pos + block.position()); while (got > 0 && block.hasRemaining());
      for (int i = block.position() - 1; i >= 0; i--) {
        // the newline that ends the last line does not start another one
        if (block.get(i) == '\n' && pos + i != end - 1 && ++newlines == n) return pos + i + 1;
      }
    }
    return 0;
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
