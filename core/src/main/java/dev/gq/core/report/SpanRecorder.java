package dev.gq.core.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the GPUs' successive uses into {@link GpuSpan}s to store: a GPU seen in the same use (and
 * index) as before extends its open span to the moment it was seen; a change closes it there and
 * opens the next; a GPU missing from a reading has its span closed. {@link #drain} hands over every
 * span that changed since the last drain (a closed one once, an open one with its newest end), so
 * writing them again only moves ends forward. Holds at most {@link #MAX_PENDING} closed spans between
 * drains, dropping the oldest. Not thread-safe; its owner calls it from one place.
 */
public final class SpanRecorder {
  /** The most closed spans kept for the next drain when drains fail. */
  public static final int MAX_PENDING = 10_000;

  /** One GPU's use at one reading. */
  public record Seen(String uuid, int index, GpuUse use) {}

  private final Map<String, GpuSpan> open = new LinkedHashMap<>();
  private final Set<String> changed = new HashSet<>();
  private final List<GpuSpan> closed = new ArrayList<>();

  /** Records the uses read at {@code at}; a reading older than the newest span's end is ignored. */
  public void seen(List<Seen> gpus, Instant at) {
    Set<String> present = new HashSet<>();
    for (Seen s : gpus) {
      present.add(s.uuid());
      GpuSpan span = open.get(s.uuid());
      if (span != null && at.isBefore(span.end())) continue;
      if (span != null && span.use() == s.use() && span.index() == s.index()) {
        open.put(s.uuid(), new GpuSpan(s.uuid(), s.index(), s.use(), span.start(), at));
      } else {
        if (span != null) close(new GpuSpan(span.uuid(), span.index(), span.use(), span.start(), at));
        open.put(s.uuid(), new GpuSpan(s.uuid(), s.index(), s.use(), at, at));
      }
      changed.add(s.uuid());
    }
    for (var it = open.entrySet().iterator(); it.hasNext();) {
      var e = it.next();
      if (present.contains(e.getKey())) continue;
      GpuSpan span = e.getValue();
      close(new GpuSpan(span.uuid(), span.index(), span.use(), span.start(), at.isAfter(span.end()) ? at : span.end()));
      it.remove();
    }
  }

  /** Closes every open span at {@code at} (the daemon stops): what follows is unknown until the next start. */
  public void stop(Instant at) {
    seen(List.of(), at);
  }

  /** The spans to write: closed since the last drain, then the open ones that changed. Clears them. */
  public List<GpuSpan> drain() {
    List<GpuSpan> out = new ArrayList<>(closed);
    for (String uuid : changed) if (open.containsKey(uuid)) out.add(open.get(uuid));
    closed.clear();
    changed.clear();
    return out;
  }

  /** Puts back spans whose write failed, to be written with the next drain. */
  public void retry(List<GpuSpan> spans) {
    for (GpuSpan s : spans) {
      GpuSpan o = open.get(s.uuid());
      if (o != null && o.start().equals(s.start())) changed.add(s.uuid());
      else close(s);
    }
  }

  private void close(GpuSpan s) {
    // a zero-length span adds nothing to any figure
    if (!s.end().isAfter(s.start())) return;
    closed.add(s);
    if (closed.size() > MAX_PENDING) closed.remove(0);
  }
}
