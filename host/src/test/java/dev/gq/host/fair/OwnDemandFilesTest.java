package dev.gq.host.fair;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gq.core.fair.Demand;
import dev.gq.core.fair.DemandRules;
import dev.gq.core.proc.ProcInfo;
import dev.gq.host.proc.ProcFs;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * This daemon's own demand file among other users' in a sticky directory: a name someone else's
 * file stands at is given up for a new one, and what this user's ended daemons left is removed
 * while other users' files are left alone. Files of another owner are made with chown: needs root.
 */
class OwnDemandFilesTest {
  static final Instant T = Instant.parse("2026-03-02T09:00:00Z");
  static final int NOBODY = 65534;
  @TempDir Path dir;
  final ProcFs proc = new ProcFs();
  int me;
  Demand mine;
  Instant now = Instant.now();

  @BeforeEach
  void setUp() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make files of another owner");
    Files.setAttribute(dir, "unix:mode", 01777);
    me = (Integer) Files.getAttribute(dir, "unix:uid");
    long pid = ProcessHandle.current().pid();
    ProcInfo self = proc.info(pid).orElseThrow();
    mine = new Demand("alice", me, pid, self.startTicks(), proc.bootId(), 3, 4, 2, T, 1, T);
  }

  private Path planted(String name, String text, int owner) throws Exception {
    Path p = Files.writeString(dir.resolve(name), text);
    Files.setAttribute(p, "unix:uid", owner, LinkOption.NOFOLLOW_LINKS);
    return p;
  }

  @Test
  void aNameAnotherUsersFileStandsAtIsGivenUpForANewOne() throws Exception {
    String taken = DemandRules.fileName(me, "0".repeat(16));
    Path squat = planted(taken, "squatted\n", NOBODY);
    Iterator<String> parts = List.of("0".repeat(16), "1".repeat(16)).iterator();
    var files = new DemandFiles(dir, proc, () -> now, parts::next);
    assertNull(files.publish(mine));
    assertEquals(DemandRules.fileName(me, "1".repeat(16)), files.name());
    assertEquals(List.of(mine), files.read().counted(), "everyone sees this user wait");
    assertEquals("squatted\n", Files.readString(squat), "the other user's file is left as it was");
    assertEquals(NOBODY, (int) Files.getAttribute(squat, "unix:uid"));
  }

  @Test
  void namesThatKeepFailingAreSaidInOneLine() throws Exception {
    for (char c : "abc".toCharArray()) planted(DemandRules.fileName(me, String.valueOf(c).repeat(16)), "", NOBODY);
    Iterator<String> parts = List.of("a".repeat(16), "b".repeat(16), "c".repeat(16)).iterator();
    String why = new DemandFiles(dir, proc, () -> now, parts::next).publish(mine);
    assertEquals("cannot publish this user's demand: uid " + NOBODY + "'s file stands at " + dir.resolve(DemandRules.fileName(me,
        "c".repeat(16))), why);
  }

  @Test
  void whatThisUsersEndedDaemonsLeftIsRemovedAndOtherUsersFilesAreNot() throws Exception {
    Demand ended = new Demand("alice", me, 999_999_999L, 5, mine.bootId(), 1, 1, 1, T, 0, T);
    Demand othersEnded = new Demand("nobody", NOBODY, 999_999_999L, 5, mine.bootId(), 1, 1, 1, T, 0, T);
    Path ownEnded = planted(DemandRules.fileName(me, "a".repeat(16)), ended.text(), me);
    Path ownLive = planted(DemandRules.fileName(me, "b".repeat(16)), mine.text(), me);
    Path othersFile = planted(DemandRules.fileName(NOBODY, "c".repeat(16)), othersEnded.text(), NOBODY);
    Path othersAtMyName = planted(DemandRules.fileName(me, "d".repeat(16)), othersEnded.text(), NOBODY);
    Path ownTemp = planted("." + DemandRules.fileName(me, "e".repeat(16)) + ".tmp-0123456789ab", "half", me);
    Path othersTemp = planted("." + DemandRules.fileName(me, "f".repeat(16)) + ".tmp-0123456789ab", "half", NOBODY);
    var files = new DemandFiles(dir, proc, () -> now);
    assertNull(files.publish(mine));
    assertFalse(Files.exists(ownEnded), "this user's file of an ended daemon");
    assertTrue(Files.exists(ownTemp), "a temporary file another daemon of this user may be writing now");
    now = now.plus(DemandRules.TEMP_AGE).plusSeconds(1);
    assertNull(files.publish(mine));
    assertFalse(Files.exists(ownTemp), "left by a daemon killed mid-write");
    for (Path kept : List.of(ownLive, othersFile, othersAtMyName, othersTemp)) assertTrue(Files.exists(kept), kept.toString());
    assertTrue(Files.exists(dir.resolve(files.name())));
  }
}
