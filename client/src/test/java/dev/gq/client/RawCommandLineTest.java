package dev.gq.client;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RawCommandLineTest {

  /** NUL-terminated entries, as /proc writes them. */
  private static byte[] proc(byte[]... entries) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] e : entries) {
      out.writeBytes(e);
      out.write(0);
    }
    return out.toByteArray();
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static final byte[] CAFE_LATIN1 = {'c', 'a', 'f', (byte) 0xe9};

  @Test
  void utf8ArgumentsAreTakenFromTheLastEntriesOfTheCommandLine() throws ClientFailure {
    byte[] cmdline = proc(b("java"), b("-cp"), b("x.jar"), b("dev.gq.client.Main"), b("-g"), b("0"), b("echo"), b("café"), b(""));
    // the JVM's decoding (a C locale) lost the é; the bytes did not
    RawCommandLine raw = RawCommandLine.of(new String[] {"-g", "0", "echo", "caf??", ""}, cmdline, Map.of(), null);
    assertEquals(List.of("-g", "0", "echo", "café", ""), raw.args());
  }

  @Test
  void anArgumentThatIsNotUtf8IsRefusedNamingIt() {
    byte[] cmdline = proc(b("java"), b("Main"), b("-g"), b("0"), b("printf"), b("%s"), CAFE_LATIN1);
    ClientFailure f = assertThrows(ClientFailure.class,
        () -> RawCommandLine.of(new String[] {"-g", "0", "printf", "%s", "caf\uFFFD"}, cmdline, Map.of(), null));
    assertEquals(2, f.code());
    assertEquals("argument 5 is not valid UTF-8: caf\\xe9; gq passes commands to jobs as UTF-8 text only:"
        + " re-encode it (e.g. with iconv -t UTF-8)", f.getMessage());
  }

  @Test
  void withoutProcTheJvmsArgumentsAreUsed() throws ClientFailure {
    assertEquals(List.of("ps"), RawCommandLine.of(new String[] {"ps"}, null, Map.of(), null).args());
    assertEquals(List.of("ps"), RawCommandLine.of(new String[] {"ps"}, new byte[0], Map.of(), null).args());
  }

  @Test
  void environmentIsReadFromTheBytesAndAVariableThatIsNotUtf8IsLeftOutByName() throws ClientFailure {
    byte[] environ = proc(b("HOME=/home/ana"), b("LANGUAGE=fr_FR:é"), concat(b("OLD="), CAFE_LATIN1),
        concat(new byte[] {'N', (byte) 0xff, '='}, b("x")), b("EMPTY="), b("noequals"));
    RawCommandLine raw = RawCommandLine.of(new String[0], proc(b("java")), Map.of("JVM", "view"), environ);
    assertEquals(Map.of("HOME", "/home/ana", "LANGUAGE", "fr_FR:é", "EMPTY", ""), raw.env());
    assertEquals(List.of("OLD", "N\\xff"), raw.droppedEnv());
  }

  @Test
  void withoutProcTheJvmsEnvironmentIsUsed() throws ClientFailure {
    RawCommandLine raw = RawCommandLine.of(new String[0], null, Map.of("A", "b"), null);
    assertEquals(Map.of("A", "b"), raw.env());
    assertTrue(raw.droppedEnv().isEmpty());
  }

  @Test
  void shownKeepsValidTextAndEscapesEveryBadByte() {
    assertEquals("a\\xffé\\xe2\\x9c", RawCommandLine.shown(new byte[] {'a', (byte) 0xff, (byte) 0xc3, (byte) 0xa9, (byte) 0xe2, (byte) 0x9c}));
    assertNull(RawCommandLine.utf8(CAFE_LATIN1));
    assertEquals("café", RawCommandLine.utf8(b("café")));
  }

  @Test
  void aWorkingDirectoryWhoseNameDoesNotLeadBackIsRefusedNamingItsBytes() throws ClientFailure {
    byte[] environ = proc(concat(b("PWD=/tmp/x"), new byte[] {(byte) 0xff}));
    RawCommandLine raw = RawCommandLine.of(new String[0], null, Map.of(), environ);
    ClientFailure f = assertThrows(ClientFailure.class, () -> raw.workingDirectory("/tmp/x\uFFFD"));
    assertEquals(2, f.code());
    assertTrue(f.getMessage().startsWith("the working directory /tmp/x\\xff cannot be named in UTF-8"), f.getMessage());
    assertEquals(System.getProperty("user.dir"), raw.workingDirectory(System.getProperty("user.dir")));
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] r = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
