package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.ApiReplies.QueueState;
import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.api.GqApi;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads what one screen of {@code gq top} shows from the daemon, through the same calls as
 * {@code gq ps}, {@code gq gpu}, {@code gq groups} and {@code gq events}: the GPUs and their
 * processes, the live jobs and the newest ended ones, the newest events, the groups (every few
 * screens: they are counted over the whole history) and, on the log page, the end of the selected
 * job's log as lines a screen can show. One per {@code gq top} run.
 */
final class TopReads {
  /** Ended jobs shown under the live ones. */
  private static final int RECENT = 30;
  private static final int EVENTS = 8;
  /** Groups are counted over the whole history: every few screens is often enough. */
  private static final int GROUPS_EVERY = 5;
  private static final int LOG_BYTES = 256 * 1024;
  /** A terminal's escape sequence (colours, cursor moves) in a log: left out of the screen. */
  private static final Pattern ANSI = Pattern.compile("\u001b(\\[[0-9;?]*[ -/]*[@-~]|[@-Z\\\\-_])");

  private final Invocation inv;
  private List<GroupSummary> groups = List.of();
  private int ticks;

  TopReads(Invocation inv) {
    this.inv = inv;
  }

  /** What one screen shows, read from the daemon in one pass. */
  TopData gather(TopView view) throws ApiException {
    GqApi api = inv.api();
    GqApi.GpuReport gpus = api.gpus();
    Set<Long> pids = new LinkedHashSet<>();
    for (GpuStatus g : gpus.gpus()) for (GpuProcess p : g.processes()) pids.add(p.pid());
    List<Job> jobs = new ArrayList<>(api.jobs(new JobQuery(List.of(), JobState.live(), null, 0)));
    jobs.addAll(api.jobs(new JobQuery(List.of(), JobState.ended(), null, RECENT)));
    List<Long> running = jobs.stream().filter(j -> j.state() == JobState.RUNNING || j.state() == JobState.PREEMPTING)
        .map(Job::id).toList();
    QueueState q = api.queueState();
    if (ticks++ % GROUPS_EVERY == 0) groups = api.groups();
    long after = api.eventsTail(null, null, EVENTS);
    List<StoredEvent> events = api.events(after, null, null, EVENTS);
    Job logJob = null;
    List<String> log = List.of();
    if (view.mode() == TopView.Mode.LOG && view.selected() != null) {
      logJob = api.job(view.selected()).orElse(null);
      if (logJob != null && logJob.logPath() != null) log = lastLines(api, Path.of(logJob.logPath()));
    }
    return new TopData(api.now(), zone(), gpus, api.gpuTraces(), api.processes(pids), jobs, api.waitReasons(),
        running.isEmpty() ? Map.of() : api.progress(running), running.isEmpty() ? Map.of() : api.idleJobs(),
        q.holds().keySet(), q.queueHeld(), groups, events, logJob, log, api.who());
  }

  private ZoneId zone() {
    String tz = inv.io() == null ? null : inv.io().env().get("TZ");
    try {
      return tz == null || tz.isBlank() ? ZoneId.systemDefault() : ZoneId.of(tz.startsWith(":") ? tz.substring(1) : tz);
    } catch (RuntimeException e) {
      return ZoneId.systemDefault();
    }
  }

  /** The end of a job's log as lines a screen can show (at most the last 256 KiB read). */
  private static List<String> lastLines(GqApi api, Path path) {
    try {
      Optional<FileChannel> open = api.openLog(path);
      if (open.isEmpty()) return List.of();
      try (FileChannel ch = open.get()) {
        long start = Math.max(LogFollower.startOfLastLines(ch, 200), ch.size() - LOG_BYTES);
        ByteBuffer buf = ByteBuffer.allocate((int) Math.max(0, ch.size() - start));
        while (buf.hasRemaining() && ch.read(buf, start + buf.position()) > 0) { }
        return logLines(new String(Arrays.copyOf(buf.array(), buf.position()), StandardCharsets.UTF_8));
      }
    } catch (IOException | ApiException e) {
      return List.of("(cannot read the log: " + e.getMessage() + ")");
    }
  }

  /**
   * A log's text as a screen shows it: a carriage return keeps what came after it (a progress bar
   * redrawn in place shows its last state), tabs become spaces, other control characters are shown
   * escaped rather than sent to the terminal.
   */
  static List<String> logLines(String text) {
    List<String> out = new ArrayList<>();
    for (String line : ANSI.matcher(text).replaceAll("").split("\n", -1)) {
      int cr = line.stripTrailing().lastIndexOf('\r');
      String l = cr >= 0 ? line.substring(cr + 1) : line;
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < l.length(); i++) {
        char c = l.charAt(i);
        if (c == '\t') sb.append(" ".repeat(8 - sb.length() % 8));
        else if (c < 0x20 || c == 0x7f) sb.append(c == 0x1b ? "" : "^" + (char) (c ^ 0x40));
        else sb.append(c);
      }
      out.add(sb.toString());
    }
    if (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) out.remove(out.size() - 1);
    return out;
  }
}
