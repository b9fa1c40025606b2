package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.GqApi;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BookCommandTest {
  @TempDir Path dir;
  Cli cli;
  static final Instant NOW = Instant.parse("2026-03-02T09:00:00Z");

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.io.stdoutTty = false;
    cli.io.env.put("TZ", "UTC");
    cli.api.now = NOW;
  }

  @Test
  void aBookingTakesTheNextSuchTimeAndItsLengthAndSaysHowToCancel() {
    Cli.Result r = cli.run("book", "-g", "2", "--at", "14:00", "--for", "3h");
    assertEquals(0, r.code(), r.err());
    assertEquals(List.of(2, List.of(), Instant.parse("2026-03-02T14:00:00Z"), Instant.parse("2026-03-02T17:00:00Z")), cli.api.bookAsked);
    assertEquals("Booked GPUs 0, 1 from 2026-03-02 14:00:00 to 2026-03-02 17:00:00 (3h), booking 0123abcd; "
        + "cancel with gq book --cancel 0123abcd\n", r.out());
    r = cli.run("book", "--list");
    assertEquals("""
        ID        USER   GPUS       FROM                 TO
        0123abcd  alice  GPUs 0, 1  2026-03-02 14:00:00  2026-03-02 17:00:00
        """, r.out());
    assertEquals(0, cli.run("book", "--cancel", "0123abcd").code());
    assertEquals("No GPUs are booked on this machine.\n", cli.run("book", "--list").out());
  }

  @Test
  void aYearPast9999IsWrittenAsAYear() {
    Instant far = Instant.parse("+10000-01-01T00:00:00Z");
    cli.api.booked.add(new GqApi.BookingLine("0123abcd", "eve", List.of(0), List.of("GPU-0"), far, far.plus(Duration.ofHours(1))));
    String out = cli.run("book", "--list").out();
    assertTrue(out.contains("10000-01-01 00:00:00  10000-01-01 01:00:00") && !out.contains("+"), out);
  }

  @Test
  void namedGpusAreBookedAsNamed() {
    assertEquals(0, cli.run("book", "--gpu", "2,3", "--at", "30m", "--for", "1h").code());
    assertEquals(List.of(2, List.of("2", "3"), NOW.plus(Duration.ofMinutes(30)), NOW.plus(Duration.ofMinutes(90))), cli.api.bookAsked);
  }

  @Test
  void mistakesAreOneLineEach() {
    assertOneLine(cli.run("book", "--at", "14:00", "--for", "3h"), "say how many GPUs (-g N) or which (--gpu 0,1)");
    assertOneLine(cli.run("book", "-g", "2", "--for", "3h"), "a booking needs --at WHEN and --for DURATION");
    assertOneLine(cli.run("book", "-g", "2", "--at", "teatime", "--for", "3h"), "--at takes ");
    assertOneLine(cli.run("book", "-g", "0", "--at", "14:00", "--for", "3h"), "-g must be 1 or more");
    assertOneLine(cli.run("book", "-g", "2", "--gpu", "1", "--at", "14:00", "--for", "3h"), "give -g N or --gpu LIST, not both");
    Cli.Result r = cli.run("book", "--cancel", "ffff0000");
    assertEquals(1, r.code());
    assertEquals("gq: no booking ffff0000; list them with gq book --list\n", r.err());
  }

  private static void assertOneLine(Cli.Result r, String starts) {
    assertNotEquals(0, r.code());
    String first = r.err().lines().findFirst().orElse("");
    assertTrue(first.startsWith("gq: " + starts), r.err());
  }
}
