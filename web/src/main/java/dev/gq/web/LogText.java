package dev.gq.web;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A piece of a job's log as the page shows it: whole lines only (a line still being written waits
 * for its newline), a terminal's escape sequences left out, a carriage return keeping what follows
 * it (a progress bar redrawn in place shows its last state); {@code end} is the byte offset to go on
 * from, {@code problem} why the log cannot be read (null when it can). The log is opened through
 * {@link GqApi#openLog}, as {@code gq logs} opens it: never through a link, never waiting on a pipe.
 */
record LogText(String text, long end, String problem) {
  /** At most this much of the log's end on a job's page, and in one live update. */
  static final int WINDOW = 64 * 1024;
  private static final Pattern ANSI = Pattern.compile("\u001b(\\[[0-9;?]*[ -/]*[@-~]|[@-Z\\\\-_])");

  /** The last whole lines of the log, at most {@link #WINDOW} bytes. */
  static LogText tail(GqApi api, String path) {
    return read(api, path, -1);
  }

  /** The whole lines written from byte {@code from} on (from the start again when the log shrank). */
  static LogText since(GqApi api, String path, long from) {
    return read(api, path, from);
  }

  private static LogText read(GqApi api, String path, long from) {
    if (path == null) return new LogText("", Math.max(from, 0), null);
    try {
      Optional<FileChannel> open = api.openLog(Path.of(path));
      if (open.isEmpty()) return new LogText("", Math.max(from, 0), null);
      try (FileChannel ch = open.get()) {
        long size = ch.size();
        long start = from < 0 ? Math.max(0, size - WINDOW) : from > size ? 0 : from;
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(WINDOW, size - start));
        while (buf.hasRemaining() && ch.read(buf, start + buf.position()) > 0) { }
        return whole(buf.array(), buf.position(), start, from < 0 && start > 0);
      }
    } catch (IOException | ApiException e) {
      return new LogText("", Math.max(from, 0), "cannot read the log: " + e.getMessage());
    }
  }

  /** The whole lines of {@code n} bytes read at {@code start}; a cut first line is dropped when {@code cut}. */
  static LogText whole(byte[] bytes, int n, long start, boolean cut) {
    int last = n - 1;
    while (last >= 0 && bytes[last] != '\n') last--;
    if (last < 0) return new LogText("", start, null);
    int first = 0;
    if (cut) while (first < last && bytes[first++] != '\n') { }
    String text = new String(bytes, first, last + 1 - first, StandardCharsets.UTF_8);
    return new LogText(clean(text), start + last + 1, null);
  }

  /** Escape sequences out, and of a line redrawn with carriage returns only its last drawing. */
  static String clean(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    for (String line : ANSI.matcher(text).replaceAll("").split("\n", -1)) {
      int cr = line.lastIndexOf('\r', line.length() - 2);
      String l = cr >= 0 ? line.substring(cr + 1) : line;
      if (l.endsWith("\r")) l = l.substring(0, l.length() - 1);
      if (!sb.isEmpty()) sb.append('\n');
      sb.append(l);
    }
    return sb.toString();
  }
}
