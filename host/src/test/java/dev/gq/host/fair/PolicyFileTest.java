package dev.gq.host.fair;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.fair.Policy;
import dev.gq.core.fair.PolicyReading;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the policy file from disk; the owner this test trusts is its own user (root cannot be had). */
class PolicyFileTest {
  @TempDir Path dir;
  Path file;
  int me;

  @BeforeEach
  void setUp() throws IOException {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    file = dir.resolve("policy.toml");
    me = (Integer) Files.getAttribute(dir, "unix:uid");
  }

  @Test
  void noFileIsNoPolicy() {
    assertEquals(PolicyReading.ABSENT, new PolicyFile(file, me).read());
  }

  @Test
  void aTrustedFileIsReadAsTomlIntoThePolicy() throws IOException {
    write("""
        # the lab's rules
        max_gpus_per_user = 2
        max_gpus_per_user_always = 6
        interactive_gpus = [7]
        max_time_on_shared = "3d"
        admins = ["alice"]
        """, "rw-r--r--");
    PolicyReading r = new PolicyFile(file, me).read();
    assertNull(r.problem());
    assertTrue(r.inForce());
    assertEquals(2, r.policy().maxGpusPerUser());
    assertEquals(6, r.policy().maxGpusPerUserAlways());
    assertEquals(Duration.ofDays(3), r.policy().maxTimeOnShared());
    assertTrue(r.policy().interactive(7, "GPU-x"));
  }

  @Test
  void aFileOthersCanWriteIsRefusedInOneLine() throws IOException {
    write("max_gpus_per_user = 2\n", "rw-rw-rw-");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
    PolicyReading r = new PolicyFile(file, me).read();
    assertEquals(Policy.NONE, r.policy());
    assertEquals("the policy file " + file + " is writable by others (mode 0666); run: chmod go-w " + file, r.problem());
  }

  @Test
  void aFileOfAnotherOwnerIsRefused() throws IOException {
    write("max_gpus_per_user = 2\n", "rw-r--r--");
    int owner = me;
    if (me == 0) Files.setAttribute(file, "unix:uid", owner = 65534); // run as root: give it to nobody
    PolicyReading r = new PolicyFile(file, 0).read();
    assertTrue(r.problem().startsWith("the policy file " + file + " is owned by uid " + owner + ", not root"), r.problem());
  }

  @Test
  void aLinkIsNotFollowed() throws IOException {
    Path real = dir.resolve("real.toml");
    Files.writeString(real, "max_gpus_per_user = 2\n");
    Files.createSymbolicLink(file, real);
    assertTrue(new PolicyFile(file, me).read().problem().contains("is a symbolic link"));
  }

  @Test
  void badTomlAndBadKeysAreOneLine() throws IOException {
    write("max_gpus_per_user = \n", "rw-r--r--");
    String toml = new PolicyFile(file, me).read().problem();
    assertTrue(toml.startsWith(file + " is not valid TOML: ") && toml.contains("(line 1)") && !toml.contains("\n"), toml);
    write("max_gpu_per_user = 2\n", "rw-r--r--");
    assertEquals(file + ": unknown key max_gpu_per_user; did you mean max_gpus_per_user?", new PolicyFile(file, me).read().problem());
  }

  @Test
  void aFileLargerThanTheLimitIsSaidToBeSoNotUnreadable() throws IOException {
    write("max_gpus_per_user = 2\n", "rw-r--r--");
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(50L << 30); // 50 GiB, sparse: only the first 64 KiB and one byte are read
    }
    String why = new PolicyFile(file, me).read().problem();
    assertEquals("the policy file " + file + " is larger than 64 KiB; shorten it (a policy takes a few lines)", why);
  }

  @Test
  void itTellsWhenTheFileChangedSinceItWasRead() throws IOException {
    PolicyFile p = new PolicyFile(file, me);
    assertTrue(p.changed(), "never read");
    p.read();
    assertFalse(p.changed(), "still no file");
    write("max_gpus_per_user = 2\n", "rw-r--r--");
    assertTrue(p.changed(), "made");
    assertEquals(2, p.read().policy().maxGpusPerUser());
    assertFalse(p.changed());
    // the same size and time, another file: replaced by rename, as editors and installers do
    Path next = dir.resolve("next.toml");
    Files.writeString(next, "max_gpus_per_user = 3\n");
    Files.setLastModifiedTime(next, Files.getLastModifiedTime(file));
    Files.move(next, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertTrue(p.changed(), "a new inode");
    assertEquals(3, p.read().policy().maxGpusPerUser());
    Files.setLastModifiedTime(file, FileTime.fromMillis(0));
    assertTrue(p.changed(), "touched");
    p.read();
    // a refused file made trusted by chmod alone (same content, size and time) is read again
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
    assertTrue(p.changed(), "chmod");
    assertNotNull(p.read().problem());
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    assertTrue(p.changed(), "chmod back");
    assertNull(p.read().problem());
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertTrue(p.changed(), "its folder opened to all");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.delete(file);
    p.read();
    assertFalse(p.changed());
  }

  private void write(String text, String perms) throws IOException {
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(perms));
  }
}
