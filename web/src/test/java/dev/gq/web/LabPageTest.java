package dev.gq.web;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lab's page shows what every user of the machine may see (the GPUs, their holders, everyone's
 * line, the policy, the bookings) and nothing of any job's name, command, directory, log or wait,
 * nor an outside process's command, even when the view it is given holds them.
 */
class LabPageTest {
  private static final List<String> PRIVATE = List.of("secret-name", "python", "secret-train.py", "/home/alice",
      "/tmp/7.log", "/tmp/8.log", "GPUs busy", "outside-secret --key", "/job/", "Your jobs", "Groups");

  /** A view as this user's page reads it: jobs, wait reasons and an outside process's command line. */
  private static MachineView full() {
    MachineView v = Views.view();
    return new MachineView(v.now(), v.zone(), v.user(), v.gpus(),
        Map.of(4242L, new ProcessView(4242, "dave", "outside-secret --key", Views.NOW, null)), v.who(),
        List.of(Views.job(7, "secret-name", JobState.RUNNING, List.of("python", "secret-train.py")),
            Views.job(8, "secret-name", JobState.WAITING, List.of("python", "secret-train.py"))),
        Map.of(8L, new WaitReason.GpusBusy(1, 0, List.of())), Map.of(), List.of(), false);
  }

  @Test
  void theLabsPageShowsTheGpusTheirHoldersAndEveryoneButNothingOfAnyJob() {
    String page = Pages.lab(full(), null);
    for (String s : List.of("<h2 id=\"gpus-h\">GPUs</h2>", "<h2 id=\"who-h\">Everyone on this machine</h2>", "H100",
        "GPU-a", "97 %", "71 °C", "300 / 700 W", "10240 / 81920 MiB", "unwell: Xid 79", "alice's job 7", "dave (pid 4242)",
        "RUNNING", "EXTERNAL", "Policy: no policy file", "booked by carol", "data-events=\"/events\"", "src=\"/static/page.js\""))
      assertTrue(page.contains(s), s + " in " + page);
    for (String s : PRIVATE) assertFalse(page.contains(s), s + " on the lab's page: " + page);
    assertFalse(page.contains("token="), "no token in any link when none is needed");
  }

  @Test
  void theLabsLiveSectionsCarryNothingOfAnyJobEither() {
    Map<String, String> sections = Pages.labSections(full(), "cd".repeat(32));
    assertEquals(List.of("gpus", "who"), List.copyOf(sections.keySet()));
    for (String html : sections.values()) for (String s : PRIVATE) assertFalse(html.contains(s), s + " in " + html);
  }

  @Test
  void withATokenTheLabsPageCarriesItInItsOwnAddresses() {
    String token = "cd".repeat(32);
    String page = Pages.lab(full(), token);
    assertTrue(page.contains("data-events=\"/events?token=" + token + "\""), page);
    assertTrue(page.contains("src=\"/static/page.js?token=" + token + "\""), page);
  }
}
