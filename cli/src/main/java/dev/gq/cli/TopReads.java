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
import dev.gq.core.job.WaitReason;
import dev.gq.core.progress.Estimate;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 * job's log as lines a screen can show. The live jobs come as the scheduler holds them, to count
 * and place; only the running ones and those whose rows the screen draws are read whole, with why
 * they wait, so a screen costs the daemon what it shows however long the queue. One per
 * {@code gq top} run.
 */
final class TopReads {
  /** Ended jobs shown under the live ones. */
  private static final int RECENT = 30;
  private static final int EVENTS = 8;
  /** Groups are counted over the whole history: every few screens is often enough. */
  private static final int GROUPS_EVERY = 5;
  private static final int LOG_BYTES = 256 * 1024;
  /** Beyond this many jobs to read whole, one listing of the live jobs reads them (a screen printed as text). */
  private static final int WHOLE_BY_ID = 500;
  /** A terminal's escape sequence (colours, cursor moves) in a log: left out of the screen. */
  private static final Pattern ANSI = Pattern.compile("\u001b(\\[[0-9;?]*[ -/]*[@-~]|[@-Z\\\\-_])");

  private final Invocation inv;
  private List<GroupSummary> groups = List.of();
  private int ticks;
  /** The live jobs as last read, the newest ended ones, the list made of them and those of them that are active (not waiting). */
  private Collection<Job> lastLive;
  private List<Job> lastEnded = List.of();
  private List<Job> jobs = List.of();
  private List<Job> active = List.of();

  TopReads(Invocation inv) {
    this.inv = inv;
  }

  /**
   * What one screen of {@code width} x {@code height} shows, read from the daemon in one pass: the
   * live jobs as the scheduler holds them (to count and place them), then whole, with why they
   * wait, only the jobs whose rows the screen draws and those that run.
   */
  TopData gather(TopView view, int width, int height) throws ApiException {
    GqApi api = inv.api();
    GqApi.GpuReport gpus = api.gpus();
    Set<Long> pids = new LinkedHashSet<>();
    for (GpuStatus g : gpus.gpus()) for (GpuProcess p : g.processes()) pids.add(p.pid());
    // the ended ones first: the scheduler is never behind the history, so no job is in both
    List<Job> ended = api.jobPage(new JobQuery(List.of(), JobState.ended(), null, RECENT)).jobs();
    Collection<Job> live = api.liveJobs();
    if (live != lastLive || !ended.equals(lastEnded)) listed(live, ended);
    Map<Long, Job> whole = new HashMap<>();
    for (Job j : ended) whole.put(j.id(), j);
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
    TopData d = new TopData(api.now(), zone(), gpus, api.gpuTraces(), api.processes(pids), jobs, Map.of(),
        Map.of(), active.isEmpty() ? Map.of() : api.idleJobs(), q.holds().keySet(), q.queueHeld(), groups, events, logJob,
        log, api.who(), whole);
    return detail(d, view, width, height, active);
  }

  /**
   * The list of jobs a screen shows, made afresh only when the live jobs or the newest ended ones
   * changed: while a long queue stands still each screen reuses it (and {@link TopListing} the
   * order worked out from it).
   */
  private void listed(Collection<Job> live, List<Job> ended) {
    List<Job> all = new ArrayList<>(live.size() + ended.size());
    List<Job> act = new ArrayList<>();
    for (Job j : live) {
      all.add(j);
      if (j.state() != JobState.WAITING && !j.state().terminal()) act.add(j);
    }
    all.addAll(ended);
    jobs = all;
    active = act;
    lastLive = live;
    lastEnded = ended;
  }

  /**
   * {@code d} with the jobs whose rows the screen now draws read whole, with why each waits and how
   * far each running one has got: after a key moved the list, only those not read yet.
   */
  TopData detail(TopData d, TopView view, int width, int height) throws ApiException {
    return detail(d, view, width, height, List.of());
  }

  private TopData detail(TopData d, TopView view, int width, int height, List<Job> also) throws ApiException {
    Map<Long, Job> wanted = new LinkedHashMap<>();
    for (Job j : also) if (!d.isWhole(j.id())) wanted.put(j.id(), j);
    for (Job j : TopScreen.drawn(d, view, width, height)) if (!d.isWhole(j.id())) wanted.put(j.id(), j);
    if (wanted.isEmpty()) return d;
    GqApi api = inv.api();
    Map<Long, Job> read = new HashMap<>();
    JobQuery q = wanted.size() > WHOLE_BY_ID ? new JobQuery(List.of(), JobState.live(), null, 0) // a screen printed as text
        : JobQuery.ids(wanted.keySet(), Set.of());
    for (Job j : api.jobPage(q).jobs()) if (wanted.containsKey(j.id())) read.put(j.id(), j);
    List<Long> waiting = new ArrayList<>();
    List<Long> running = new ArrayList<>();
    for (Job j : read.values()) {
      if (j.state() == JobState.WAITING) waiting.add(j.id());
      else if (j.state() == JobState.RUNNING || j.state() == JobState.PREEMPTING) running.add(j.id());
    }
    // a job no longer in the history is shown as it was listed, and not asked for again
    wanted.forEach(read::putIfAbsent);
    Map<Long, Job> whole = new HashMap<>(d.whole());
    whole.putAll(read);
    Map<Long, WaitReason> waits = new HashMap<>(d.waits());
    if (!waiting.isEmpty()) waits.putAll(api.waitReasons(waiting));
    Map<Long, Estimate> progress = new HashMap<>(d.progress());
    if (!running.isEmpty()) progress.putAll(api.progress(running));
    return new TopData(d.now(), d.zone(), d.gpus(), d.traces(), d.processes(), d.jobs(), waits, progress, d.idle(),
        d.heldGroups(), d.queueHeld(), d.groups(), d.events(), d.logJob(), d.log(), d.who(), whole);
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
