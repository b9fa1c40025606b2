package dev.gq.host.fair;

import dev.gq.core.fair.AdminOrder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The admins' orders in the shared lease directory, one file each ({@link AdminOrder}): written by
 * an admin's gq under a new random name (so nobody can take the name first), read by every gq with
 * each file's owner from lstat and that uid's login name from the system's user database (never from
 * the file), removed by their owner (the sticky directory lets only the owner and root remove a
 * file). Whether an order counts is {@link AdminOrder#standing}'s to say.
 */
public final class AdminFiles {
  private final Path dir;

  public AdminFiles(Path leaseDir) {
    this.dir = leaseDir.toAbsolutePath();
  }

  /** The orders read, and name → why for each file that is not one. */
  public record Reading(List<AdminOrder> orders, Map<String, String> ignored) {}

  public Reading read() {
    Map<String, String> ignored = new LinkedHashMap<>();
    List<AdminOrder> out = new ArrayList<>();
    for (PublishedFiles.Read f : PublishedFiles.readAll(dir, AdminOrder::isOrderFile, AdminOrder.MAX_BYTES, ignored)) {
      Optional<AdminOrder> o = AdminOrder.parse(f.name(), f.ownerUid(), loginName(f.name(), f.ownerUid()), f.text());
      if (o.isPresent()) out.add(o.get());
      else ignored.put(f.name(), "not a gq-admin 1 file with one drain or cancel order");
    }
    return new Reading(out, ignored);
  }

  /**
   * The login name of {@code uid}, the owner of {@code name}, as the user database has it (by the
   * file's owner; null when the file changed owner meanwhile or cannot be read).
   */
  private String loginName(String name, int uid) {
    try {
      String login = Files.getOwner(dir.resolve(name), LinkOption.NOFOLLOW_LINKS).getName();
      return PublishedFiles.ownerOf(dir, name) == uid ? login : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** Writes an order of {@code uid}'s with {@code text}; the file's name, or the line why not as a problem. */
  public record Written(String name, String problem) {}

  public Written write(int uid, String text) {
    String name = AdminOrder.fileName(uid, HexFormat.of().formatHex(PublishedFiles.randomBytes(8)));
    return new Written(name, PublishedFiles.write(dir, name, text));
  }

  /**
   * Removes the orders {@code which} accepts that {@code uid} may remove (its own; root's gq every
   * one); how many were removed.
   */
  public int remove(int uid, Predicate<AdminOrder> which) {
    int removed = 0;
    for (AdminOrder o : read().orders())
      if (which.test(o) && (o.owner() == uid || uid == 0) && PublishedFiles.removeOwn(dir, o.file(), o.owner()) == null) removed++;
    return removed;
  }
}
