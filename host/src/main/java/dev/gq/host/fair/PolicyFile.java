package dev.gq.host.fair;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.gq.core.fair.Policy;
import dev.gq.core.fair.PolicyReading;
import dev.gq.core.fair.PolicyTrust;
import dev.gq.host.fs.RegularFiles.NotRegularFileException;
import dev.gq.host.fs.RegularFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The machine policy file, {@code /etc/gq/policy.toml}: read only when {@link PolicyTrust} trusts
 * it (lstat of the file, never following a link, and stat of its folder), opened with
 * {@code O_NOFOLLOW}, at most 64 KiB of UTF-8 TOML, and re-read when its stamp (inode, size,
 * modification time) has changed ({@link #changed}). No file is no policy. The trusted owner is
 * root; tests pass their own uid. One instance per daemon, used from one thread at a time.
 */
public final class PolicyFile {
  public static final Path DEFAULT = Path.of("/etc/gq/policy.toml");
  private static final int MAX_BYTES = 64 * 1024;
  private static final TomlMapper TOML = new TomlMapper();

  /** What identifies one version of the file. */
  record Stamp(Object inode, long size, long modifiedNanos, Object changed, Object mode, Object owner, Object dirMode, Object dirOwner) {}

  private final Path file;
  private final int trustedUid;
  private Stamp lastRead;
  private boolean read;

  public PolicyFile(Path file, int trustedUid) {
    this.file = file.toAbsolutePath();
    this.trustedUid = trustedUid;
  }

  /** Whether the file (or its absence) differs from what the last {@link #read} saw; true before the first. */
  public boolean changed() {
    return !read || !Objects.equals(stamp(), lastRead);
  }

  /** The policy the file states now, or why it is refused; {@link PolicyReading#ABSENT} when there is none. */
  public PolicyReading read() {
    Stamp before = stamp();
    PolicyReading r = readOnce();
    Stamp after = stamp();
    read = true;
    // replaced while read: read what it is now next time
    lastRead = Objects.equals(before, after) ? after : null;
    return r;
  }

  private PolicyReading readOnce() {
    try {
      Map<String, Object> a = Files.readAttributes(file, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
      Map<String, Object> d = Files.readAttributes(file.getParent(), "unix:uid,mode");
      int mode = (Integer) a.get("mode");
      var facts = new PolicyTrust.Facts(mode & 0170000, (Integer) a.get("uid"), mode, (Integer) d.get("uid"), (Integer) d.get("mode"));
      String refused = PolicyTrust.refusal(file.toString(), facts, trustedUid);
      if (refused != null) return PolicyReading.refused(refused);
      return parse(text());
    } catch (NoSuchFileException e) {
      return PolicyReading.ABSENT;
    } catch (CharacterCodingException e) {
      return PolicyReading.refused("the policy file " + file + " is not UTF-8 text; save it as UTF-8");
    } catch (TooLarge e) {
      return PolicyReading.refused("the policy file " + file + " is larger than " + MAX_BYTES / 1024
          + " KiB; shorten it (a policy takes a few lines)");
    } catch (NotRegularFileException e) {
      // replaced between the lstat and the open
      return PolicyReading.refused("the policy file " + file + " is " + e.kind() + ", not a regular file; replace it with a TOML file");
    } catch (AccessDeniedException e) {
      return PolicyReading.refused("cannot read the policy file " + file + " (permission denied); make it readable by all: chmod 644 " + file);
    } catch (IOException e) {
      return PolicyReading.refused("cannot read the policy file " + file + " (" + e.getMessage() + "); check the file and its disk");
    }
  }

  /** The file holds more than {@link #MAX_BYTES}: not read further. */
  private static final class TooLarge extends IOException {
    TooLarge() {
      super("larger than " + MAX_BYTES + " bytes");
    }
  }

  private String text() throws IOException {
    try (FileChannel ch = RegularFiles.openForReading(file)) {
      ByteBuffer buf = ByteBuffer.allocate(MAX_BYTES + 1);
      while (buf.hasRemaining() && ch.read(buf) > 0) {}
      if (buf.position() > MAX_BYTES) throw new TooLarge();
      buf.flip();
      return StandardCharsets.UTF_8.newDecoder().decode(buf).toString();
    }
  }

  private PolicyReading parse(String text) {
    try {
      Map<String, Object> doc = TOML.readValue(text, new TypeReference<Map<String, Object>>() {});
      return new PolicyReading(Policy.from(doc == null ? Map.of() : doc, file.toString()), null);
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
      String what = String.valueOf(e.getOriginalMessage()).lines().findFirst().orElse("");
      return PolicyReading.refused(file + " is not valid TOML: " + what + where + "; fix it (as root) and gq re-reads it");
    } catch (IllegalArgumentException e) {
      return PolicyReading.refused(e.getMessage());
    }
  }

  private Stamp stamp() {
    try {
      // its mode, owner and change time too, and its folder's: a chmod or chown that makes the file
      // trusted (or not) is a change
      Map<String, Object> a = Files.readAttributes(file, "unix:ino,size,lastModifiedTime,ctime,mode,uid", LinkOption.NOFOLLOW_LINKS);
      Map<String, Object> d = Files.readAttributes(file.getParent(), "unix:mode,uid");
      return new Stamp(a.get("ino"), (Long) a.get("size"),
          ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS),
          a.get("ctime"), a.get("mode"), a.get("uid"), d.get("mode"), d.get("uid"));
    } catch (IOException e) {
      return null;
    }
  }
}
