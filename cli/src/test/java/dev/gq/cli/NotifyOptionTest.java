package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NotifyOptionTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  private JobSpec onlySubmitted() {
    assertEquals(1, cli.api.submitted.size(), "one submit expected");
    return cli.api.submitted.get(0);
  }

  @Test
  void bareNotifyAsksForTheEndAndNeverTakesTheCommandsFirstWord() {
    Cli.Result r = cli.run("-g", "1", "--notify", "python", "train.py");
    assertEquals(0, r.code(), r.err());
    JobSpec spec = onlySubmitted();
    assertEquals(List.of("python", "train.py"), spec.argv());
    assertEquals("end", spec.env().get("GQ_NOTIFY"));
  }

  @Test
  void notifyWithEventsStoresThemCheckedAndRefusesAnUnknownWord() {
    assertEquals(0, cli.run("run", "--notify=group,failed", "true").code());
    assertEquals("failed,group", onlySubmitted().env().get("GQ_NOTIFY"));
    Cli.Result bad = cli.run("run", "--notify=finish", "true");
    assertEquals(1, bad.code());
    assertTrue(bad.err().contains("unknown notification event 'finish'"), bad.err());
  }

  @Test
  void aScriptsDirectiveAsksUnlessTheCommandLineDoes() throws Exception {
    Files.writeString(dir.resolve("t.sh"), "#!/bin/bash\n#gq --notify=failed\necho hi\n");
    assertEquals(0, cli.run("submit", "t.sh").code());
    assertEquals("failed", onlySubmitted().env().get("GQ_NOTIFY"));
    assertEquals(0, cli.run("submit", "--notify=none", "t.sh").code());
    assertEquals("none", cli.api.submitted.get(1).env().get("GQ_NOTIFY"));
    Files.writeString(dir.resolve("bad.sh"), "#!/bin/bash\n#gq --notify=sometimes\n");
    Cli.Result bad = cli.run("submit", "bad.sh");
    assertEquals(1, bad.code());
    assertTrue(bad.err().contains("unknown notification event 'sometimes'") && bad.err().contains("line 2"), bad.err());
  }

  @Test
  void withoutNotifyNothingIsStored() {
    assertEquals(0, cli.run("run", "true").code());
    assertNull(onlySubmitted().env().get("GQ_NOTIFY"));
  }
}
