package dev.gq.host.fair;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.fair.Demand;
import dev.gq.core.fair.DemandRules;
import dev.gq.core.proc.ProcInfo;
import dev.gq.host.proc.ProcFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Publishing and reading demand files in a lease directory, with this test's JVM as the daemon. */
class DemandFilesTest {
  static final Instant T = Instant.parse("2026-03-02T09:00:00Z");
  @TempDir Path dir;
  final ProcFs proc = new ProcFs();
  int me;
  Demand mine;
  DemandFiles files;
  Instant now = Instant.now();

  @BeforeEach
  void setUp() throws IOException {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    me = (Integer) Files.getAttribute(dir, "unix:uid");
    long pid = ProcessHandle.current().pid();
    ProcInfo self = proc.info(pid).orElseThrow();
    mine = new Demand("alice", me, pid, self.startTicks(), proc.bootId(), 3, 4, 2, T, 1, T);
    files = new DemandFiles(dir, proc, () -> now);
  }

  private static String name(int uid, char c) {
    return DemandRules.fileName(uid, String.valueOf(c).repeat(16));
  }

  @Test
  void aPublishedDemandIsReadBackWithMode0644() throws IOException {
    assertNull(files.publish(mine));
    Path f = dir.resolve(files.name());
    assertTrue(files.name().matches("demand-" + me + "-[0-9a-f]{16}\\.demand"), files.name());
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
    DemandFiles.Reading r = files.read();
    assertEquals(List.of(mine), r.counted());
    assertEquals(java.util.Map.of(), r.ignored());
    try (var s = Files.list(dir)) {
      assertEquals(1, s.count(), "no temp file left behind");
    }
  }

  @Test
  void nothingWaitingRemovesTheFile() {
    files.publish(mine);
    String name = files.name();
    assertNull(files.publish(new Demand("alice", me, mine.pid(), mine.startTicks(), mine.bootId(), 0, 0, 0, null, 2, T)));
    assertEquals(List.of(), files.read().counted());
    assertFalse(Files.exists(dir.resolve(name)));
    assertNull(files.publish(mine));
    assertEquals(name, files.name(), "the same daemon keeps its name");
    assertNull(files.withdraw(me));
    assertFalse(Files.exists(dir.resolve(name)), "withdrawn at stop");
  }

  @Test
  void aGoneOrReusedDaemonsFileStopsCounting() throws IOException {
    Demand gone = new Demand("bob", me, 999_999_999L, 5, mine.bootId(), 1, 1, 1, T, 0, T);
    Demand reused = new Demand("carol", me, mine.pid(), mine.startTicks() + 1, mine.bootId(), 1, 1, 1, T, 0, T);
    Files.writeString(dir.resolve(name(me, 'b')), gone.text());
    Files.writeString(dir.resolve(name(me, 'c')), reused.text());
    DemandFiles.Reading r = files.read();
    assertEquals(List.of(), r.counted());
    assertEquals("its daemon (pid 999999999) has ended", r.ignored().get(name(me, 'b')));
    assertTrue(r.ignored().get(name(me, 'c')).contains("the pid is another process's now"));
  }

  @Test
  void aFileClaimingAnotherUserAMalformedFileAndALinkAreIgnoredWithAReason() throws IOException {
    Demand other = new Demand("root", me + 1, mine.pid(), mine.startTicks(), mine.bootId(), 1, 8, 8, T, 0, T);
    String claims = name(me, 'a'), junk = name(me, 'b'), link = name(me, 'c');
    Files.writeString(dir.resolve(claims), other.text());
    Files.writeString(dir.resolve(junk), "gq-demand 1\nuser=eve\n");
    Path target = Files.writeString(dir.resolve("elsewhere"), mine.text());
    Files.createSymbolicLink(dir.resolve(link), target);
    var r = files.read();
    assertEquals(List.of(), r.counted());
    assertEquals("it claims uid " + (me + 1) + " but belongs to uid " + me, r.ignored().get(claims));
    assertEquals("no valid boot id", r.ignored().get(junk));
    assertEquals("it is not a regular file", r.ignored().get(link));
    assertFalse(r.ignored().containsKey("elsewhere"), "only demand names are opened");
  }

  @Test
  void aFileUnderAnotherUidsNameDoesNotCount() throws IOException {
    String squatted = name(me + 1, 'a');
    Files.writeString(dir.resolve(squatted), mine.text());
    assertEquals("its name is uid " + (me + 1) + "'s but it belongs to uid " + me, files.read().ignored().get(squatted));
  }

  @Test
  void publishingReplacesALinkAtItsNameWithoutWritingThroughIt() throws IOException {
    Path victim = Files.writeString(dir.resolve("victim"), "keep\n");
    Path name = dir.resolve(name(me, 'a'));
    Files.createSymbolicLink(name, victim);
    files = new DemandFiles(dir, proc, () -> now, () -> "a".repeat(16));
    assertNull(files.publish(mine));
    assertEquals("keep\n", Files.readString(victim));
    assertFalse(Files.isSymbolicLink(name));
    assertEquals(List.of(mine), files.read().counted());
  }

  @Test
  void noLeaseDirectoryIsSaidInOneLine() {
    String why = new DemandFiles(dir.resolve("none"), proc, () -> now).publish(mine);
    assertTrue(why.startsWith("cannot publish this user's demand: "), why);
    assertTrue(why.contains("does not exist yet"), why);
    assertEquals(List.of(), new DemandFiles(dir.resolve("none"), proc, () -> now).read().counted());
  }
}
