package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.core.gpu.GpuStatus;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gq events}: the Scheduler's stored events, straight from the journal, oldest first, for
 * debugging. Reads in pages of {@value #PAGE}, so a long history streams in bounded memory.
 * {@code --limit N} keeps the last N matching events; {@code -f} then keeps printing new ones,
 * checking every {@value #POLL_MS} ms, until the caller goes away (alone it starts from the last
 * {@value #FOLLOW_START} events, like {@code tail -f}).
 */
@Command(name = "events", description = "Print the scheduler's stored events, oldest first; -f keeps following.",
    footer = {"", "TIME: 2026-11-29T10:00:00Z, 2026-11-29 (midnight, your time zone) or an age: 30s, 10m, 2h, 3d.",
        "A job's environment is never shown."})
final class EventsCommand implements Callable<Integer> {
  static final int PAGE = 500;
  static final int FOLLOW_START = 10;
  static final long POLL_MS = 200;
  private final Invocation inv;
  /** The GPUs now, read once when a drain is printed: its GPU's index. */
  private List<GpuStatus> gpus;

  @Option(names = "--job", paramLabel = "JOB", description = "Only this job's events.")
  String job;

  @Option(names = "--since", paramLabel = "TIME", description = "Only events stored at or after TIME.")
  String since;

  @Option(names = {"-f", "--follow"}, description = "Keep printing new events as they are stored (Ctrl-C stops).")
  boolean follow;

  @Option(names = "--json", description = "One JSON object per line: seq, time, type, job_id, fields.")
  boolean json;

  @Option(names = "--limit", paramLabel = "N", description = "Only the last N matching events.")
  Integer limit;

  EventsCommand(Invocation inv) {
    this.inv = inv;
  }

  /** What to read: the job (or null), the earliest store time (or null). */
  private record Filter(Long jobId, Instant since) {}

  @Override
  public Integer call() throws ApiException {
    Long jobId = job == null ? null : JobRanges.id(job);
    Instant from = since == null ? null : Since.parse(since, inv.api().now(), Times.zone(inv.io().env()));
    if (limit != null && limit < 1) throw new UsageException("--limit must be at least 1, not " + limit);
    Filter filter = new Filter(jobId, from);
    Integer last = limit != null ? limit : follow && jobId == null && from == null ? FOLLOW_START : null;
    long after = last == null ? 0 : inv.api().eventsTail(jobId, from, last);
    after = print(filter, after, last == null ? Long.MAX_VALUE : last);
    if (follow) follow(filter, after);
    return ExitCode.OK;
  }

  /** Prints up to {@code max} matching events after {@code after}, page by page; returns the last seq printed. */
  private long print(Filter filter, long after, long max) throws ApiException {
    long printed = 0;
    while (printed < max && !inv.io().closed()) {
      int want = (int) Math.min(PAGE, max - printed);
      List<StoredEvent> page = inv.api().events(after, filter.jobId(), filter.since(), want);
      after = write(page, after);
      printed += page.size();
      if (page.size() < want) break;
    }
    return after;
  }

  private void follow(Filter filter, long after) throws ApiException {
    while (!inv.io().closed()) {
      List<StoredEvent> page = inv.api().events(after, filter.jobId(), filter.since(), PAGE);
      after = write(page, after);
      if (page.size() < PAGE) inv.io().beginStream();
      if (page.size() < PAGE && !pause()) return;
    }
  }

  private long write(List<StoredEvent> page, long after) throws ApiException {
    PrintWriter out = inv.out();
    for (StoredEvent e : page) {
      out.println(json ? EventLine.json(e) : EventLine.text(withGpuIndex(e)));
      after = e.seq();
    }
    if (!page.isEmpty()) out.flush();
    return after;
  }

  /** A drain or its end with the GPU's index now first among its fields (gpu=2), for the text line. */
  private StoredEvent withGpuIndex(StoredEvent e) throws ApiException {
    if (!e.type().equals("GpuDrained") && !e.type().equals("GpuResumed")) return e;
    if (gpus == null) gpus = inv.api().gpus().gpus();
    Integer index = ControlEvents.index(e, gpus);
    if (index == null) return e;
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("gpu", index);
    fields.putAll(e.fields());
    return new StoredEvent(e.seq(), e.time(), e.type(), e.jobId(), fields);
  }

  /** Waits for the next poll; false when the thread is told to stop (the daemon shuts down). */
  private static boolean pause() {
    try {
      Thread.sleep(POLL_MS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
