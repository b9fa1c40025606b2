package dev.gq.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a job's log from where it last stopped and writes the new text, decoded as UTF-8 (bad
 * bytes become U+FFFD; a character split across two reads is kept whole). The file may not exist
 * yet: a job writes its log only once it starts. The file is opened through {@link GqApi#openLog},
 * which never waits on it and accepts only a regular file. Not thread-safe; one per {@code gq logs} run.
 */
final class LogTail implements Closeable {
  private final Path path;
  private final GqApi api;
  private final ByteBuffer bytes = ByteBuffer.allocate(64 * 1024);
  private final CharBuffer chars = CharBuffer.allocate(64 * 1024);
  private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPLACE)
      .onUnmappableCharacter(CodingErrorAction.REPLACE);
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
  boolean pump(Writer out) throws IOException, ApiException {
    if (channel == null && !open()) return false;
    boolean any = false;
    while (channel.read(bytes) > 0) {
      any = true;
      bytes.flip();
      decode(out, false);
      bytes.compact();
    }
    return any;
  }

  /** Reads to the end and writes a final partial character, if any, as U+FFFD. */
  void finish(Writer out) throws IOException, ApiException {
    pump(out);
    bytes.flip();
    decode(out, true);
    decoder.flush(chars);
    drainChars(out);
    bytes.clear();
  }

  private boolean open() throws IOException, ApiException {
    channel = api.openLog(path).orElse(null);
    return channel != null;
  }

  private void decode(Writer out, boolean end) throws IOException {
    CoderResult r;
    do {
      r = decoder.decode(bytes, chars, end);
      drainChars(out);
    } while (r.isOverflow());
  }

  private void drainChars(Writer out) throws IOException {
    chars.flip();
    out.append(chars);
    chars.clear();
  }

  @Override
  public void close() throws IOException {
    if (channel != null) channel.close();
  }
}
