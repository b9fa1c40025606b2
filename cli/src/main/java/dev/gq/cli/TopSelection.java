package dev.gq.cli;

import dev.gq.core.job.Job;
import java.util.List;

/**
 * Which job {@code gq top}'s list has selected, by id, so that it stays on its job as the list
 * changes: the selected job while it is live, or while it is an ended job the user moved to; when
 * the selected job ends, the live job that takes its place (the next one, or the last live one),
 * so that the live jobs at the top of the list stay in view; the first job when the selected one is
 * no longer shown. Pure; {@link TopView} owns one.
 */
final class TopSelection {
  private Long selected;
  /** Where the selected job was in the list, and whether it was live, when it was last looked at. */
  private int at;
  private boolean live;

  Long selected() {
    return selected;
  }

  void settle(List<Job> shown) {
    int i = indexIn(shown);
    if (shown.isEmpty()) selected = null;
    else if (i < 0) selected = shown.get(0).id();
    else if (live && shown.get(i).state().terminal()) {
      int liveJobs = (int) shown.stream().filter(j -> !j.state().terminal()).count();
      if (liveJobs > 0) selected = shown.get(Math.min(at, liveJobs - 1)).id();
    }
    remember(shown);
  }

  /** Selects the job at {@code to} (kept within the list), as the user moved there. */
  void move(List<Job> shown, int to) {
    if (shown.isEmpty()) return;
    selected = shown.get(Math.max(0, Math.min(shown.size() - 1, to))).id();
    remember(shown);
  }

  /** Where the selected job is in {@code shown}, looked for first where it was last (a long list is searched only when it moved); -1 when it is not there. */
  int indexIn(List<Job> shown) {
    if (selected == null) return -1;
    if (at < shown.size() && shown.get(at).id() == selected) return at;
    for (int i = 0; i < shown.size(); i++) if (shown.get(i).id() == selected) return i;
    return -1;
  }

  private void remember(List<Job> shown) {
    int i = indexIn(shown);
    at = Math.max(0, i);
    live = i >= 0 && !shown.get(i).state().terminal();
  }
}
