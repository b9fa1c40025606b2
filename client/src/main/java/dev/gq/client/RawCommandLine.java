package dev.gq.client;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The caller's arguments and environment as the bytes Linux gave the process, read from
 * {@code /proc/self/cmdline} and {@code /proc/self/environ}, because the JVM decodes both with the
 * locale's charset and silently replaces what does not decode. gq sends text over its protocol, so
 * each is decoded as strict UTF-8: an argument that is not UTF-8 is refused with one line naming
 * it ({@link ClientFailure}, exit 2), an environment variable that is not is left out and named in
 * {@link #droppedEnv}. Without /proc the JVM's view is used as it is.
 */
final class RawCommandLine {
  private final List<String> args;
  private final Map<String, String> env;
  private final List<String> droppedEnv;
  private final byte[] pwd;

  private RawCommandLine(List<String> args, Map<String, String> env, List<String> droppedEnv, byte[] pwd) {
    this.args = args;
    this.env = env;
    this.droppedEnv = droppedEnv;
    this.pwd = pwd;
  }

  /** Reads this process's own command line and environment. */
  static RawCommandLine ofThisProcess(String[] jvmArgs, Map<String, String> jvmEnv) throws ClientFailure {
    return of(jvmArgs, read("/proc/self/cmdline"), jvmEnv, read("/proc/self/environ"));
  }

  /**
   * The working directory as the JVM names it ({@code userDir}), after checking that the name
   * leads back to the directory the process is in: a name that is not UTF-8 reaches the JVM with
   * its bad bytes replaced, and would run jobs elsewhere or nowhere. Such a directory is refused
   * with one line naming it (from {@code $PWD} when that has the raw bytes).
   */
  String workingDirectory(String userDir) throws ClientFailure {
    if (ascii(userDir)) return userDir;
    try {
      if (Files.isSameFile(Path.of(userDir), Path.of("."))) return userDir;
    } catch (IOException | RuntimeException e) {
      // not the same directory by that name: refused below
    }
    String name = pwd != null && utf8(pwd) == null ? shown(pwd) : userDir;
    throw new ClientFailure("the working directory " + name + " cannot be named in UTF-8 (or was removed); gq runs jobs"
        + " in directories it can name as UTF-8 text: rename it, or cd to another directory", 2);
  }

  /** Plain ASCII, without the '?' a JVM in the C locale may have put for bytes it could not decode. */
  private static boolean ascii(String s) {
    for (int i = 0; i < s.length(); i++) if (s.charAt(i) >= 0x7f || s.charAt(i) == '?') return false;
    return true;
  }

  /**
   * {@code cmdline} and {@code environ}: NUL-terminated entries as in /proc, or null when unknown;
   * the last {@code jvmArgs.length} entries of {@code cmdline} are the caller's arguments.
   */
  static RawCommandLine of(String[] jvmArgs, byte[] cmdline, Map<String, String> jvmEnv, byte[] environ)
      throws ClientFailure {
    List<String> args = arguments(jvmArgs, cmdline);
    if (environ == null) return new RawCommandLine(args, jvmEnv, List.of(), null);
    byte[] pwd = null;
    Map<String, String> env = new LinkedHashMap<>();
    List<String> dropped = new ArrayList<>();
    for (byte[] entry : split(environ)) {
      int eq = indexOf(entry, (byte) '=');
      if (eq <= 0) continue;
      String text = utf8(entry);
      if (eq == 3 && entry[0] == 'P' && entry[1] == 'W' && entry[2] == 'D' && pwd == null)
        pwd = Arrays.copyOfRange(entry, 4, entry.length);
      if (text == null) dropped.add(shown(Arrays.copyOf(entry, eq)));
      else env.putIfAbsent(text.substring(0, eq(text)), text.substring(eq(text) + 1));
    }
    return new RawCommandLine(args, env, dropped, pwd);
  }

  List<String> args() {
    return args;
  }

  Map<String, String> env() {
    return env;
  }

  /** The names (non-UTF-8 bytes shown as {@code \xNN}) of variables left out. */
  List<String> droppedEnv() {
    return droppedEnv;
  }

  private static List<String> arguments(String[] jvmArgs, byte[] cmdline) throws ClientFailure {
    List<byte[]> entries = cmdline == null ? List.of() : split(cmdline);
    if (entries.size() < jvmArgs.length) return List.of(jvmArgs);
    List<String> args = new ArrayList<>(jvmArgs.length);
    int first = entries.size() - jvmArgs.length;
    for (int i = 0; i < jvmArgs.length; i++) {
      byte[] raw = entries.get(first + i);
      String text = utf8(raw);
      if (text == null) {
        throw new ClientFailure("argument " + (i + 1) + " is not valid UTF-8: " + shown(raw)
            + "; gq passes commands to jobs as UTF-8 text only: re-encode it (e.g. with iconv -t UTF-8)", 2);
      }
      args.add(text);
    }
    return args;
  }

  private static int eq(String text) {
    return text.indexOf('=');
  }

  /** The bytes as strict UTF-8, or null when they are not. */
  static String utf8(byte[] bytes) {
    try {
      return decoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** The bytes as text for a message: valid UTF-8 as it is, every other byte as {@code \xNN}. */
  static String shown(byte[] bytes) {
    CharsetDecoder d = decoder();
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length * 4 + 4);
    while (true) {
      CoderResult r = d.decode(in, out, true);
      if (!r.isError()) break;
      for (int i = 0; i < r.length(); i++) out.put(String.format("\\x%02x", in.get() & 0xff));
    }
    d.flush(out);
    return out.flip().toString();
  }

  private static CharsetDecoder decoder() {
    return StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }

  /** The NUL-terminated entries of a /proc file (a last entry without its NUL counts too). */
  static List<byte[]> split(byte[] bytes) {
    List<byte[]> entries = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        entries.add(Arrays.copyOfRange(bytes, start, i));
        start = i + 1;
      }
    }
    if (start < bytes.length) entries.add(Arrays.copyOfRange(bytes, start, bytes.length));
    return entries;
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) if (bytes[i] == b) return i;
    return -1;
  }

  private static byte[] read(String path) {
    try (InputStream in = new FileInputStream(path)) {
      return in.readAllBytes();
    } catch (IOException | SecurityException e) {
      return null;
    }
  }
}
