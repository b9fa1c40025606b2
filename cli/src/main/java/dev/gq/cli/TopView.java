package dev.gq.cli;

import dev.gq.cli.TopKeys.Key;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Where the user is in {@code gq top}: which screen (the list, a job's log, the help, a question, the
 * filter being typed), which job is selected (by id, so it stays on its job as the list changes) and
 * the filter. {@link #press} turns one key into what the command must do; nothing here reads or
 * changes anything else, and no key changes a job without a "y" to the question it asks first.
 */
final class TopView {
  enum Mode { LIST, LOG, HELP, CONFIRM, FILTER }

  /** What a confirmed key does to the selected job, through the same calls as its command. */
  enum Action {
    CANCEL("cancel", "Cancel"), HOLD("hold", "Hold"), RELEASE("release", "Release"), PREEMPT("preempt", "Preempt");

    final String command;
    final String verb;

    Action(String command, String verb) {
      this.command = command;
      this.verb = verb;
    }
  }

  /** What the command does after a key: nothing more than redraw, quit, or act on a job. */
  sealed interface Effect {}

  record Redraw() implements Effect {}

  record Quit() implements Effect {}

  record Act(Action action, long jobId) implements Effect {}

  static final Effect REDRAW = new Redraw();
  static final Effect QUIT = new Quit();

  private Mode mode = Mode.LIST;
  private final TopSelection selection = new TopSelection();
  private String filter = "";
  private final StringBuilder typing = new StringBuilder();
  private Action pending;
  private long pendingJob;
  private String pendingName = "";
  private String message;
  /** Rows the list moves on Page Up/Down: the rows it showed last. */
  private int page = 10;
  private final TopListing listing = new TopListing();

  Mode mode() {
    return mode;
  }

  Long selected() {
    return selection.selected();
  }

  String filter() {
    return filter;
  }

  String typing() {
    return typing.toString();
  }

  /** The question on screen: "Cancel job 4 (train.py)? [y/N]". */
  String question() {
    return pending == null ? null : pending.verb + " job " + pendingJob + " (" + pendingName + ")? [y/N] ";
  }

  /** The line that says what the last key did, until the next key. */
  String message() {
    return message;
  }

  void say(String line) {
    message = line;
  }

  void page(int rows) {
    page = Math.max(1, rows);
  }

  /** The list as last worked out, kept while its jobs, the held groups and the filter stay. */
  TopListing listing() {
    return listing;
  }

  /** Where the selected job is in {@code shown}; -1 when it is not there. */
  int selectedIndex(List<Job> shown) {
    return selection.indexIn(shown);
  }

  /** Keeps the selection on a shown job, as {@link TopSelection#settle} says. */
  void settle(List<Job> shown) {
    selection.settle(shown);
  }

  /** Whether {@code job} passes the filter: its state (or HELD, LIVE), or its group; all when none. */
  boolean shows(Job job, Set<String> heldGroups) {
    return matches(filter, job, heldGroups);
  }

  static boolean matches(String filter, Job job, Set<String> heldGroups) {
    if (filter.isEmpty()) return true;
    String f = filter.toUpperCase(Locale.ROOT);
    if (f.equals(job.state().name())) return true;
    if (f.equals("LIVE")) return !job.state().terminal();
    if (f.equals("HELD")) return JobTable.state(job, heldGroups).equals("HELD");
    return filter.equals(job.spec().group());
  }

  Effect press(Key key, List<Job> shown) {
    return press(key, shown, j -> j);
  }

  /** As above, {@code whole} giving a listed job's whole record (whose name a question shows). */
  Effect press(Key key, List<Job> shown, UnaryOperator<Job> whole) {
    settle(shown);
    if (key.kind() == TopKeys.Kind.INTERRUPT) return QUIT;
    String said = message;
    message = null;
    return switch (mode) {
      case LIST -> list(key, shown, said, whole);
      case LOG -> {
        if (key.kind() == TopKeys.Kind.ESC || isChar(key, 'q') || isChar(key, 'h')) mode = Mode.LIST;
        yield REDRAW;
      }
      case HELP -> {
        mode = Mode.LIST;
        yield REDRAW;
      }
      case CONFIRM -> confirm(key);
      case FILTER -> filterKey(key);
    };
  }

  private Effect list(Key key, List<Job> shown, String said, UnaryOperator<Job> whole) {
    int at = selection.indexIn(shown);
    switch (key.kind()) {
      case UP -> move(shown, at - 1);
      case DOWN -> move(shown, at + 1);
      case PAGE_UP -> move(shown, at - page);
      case PAGE_DOWN -> move(shown, at + page);
      case HOME -> move(shown, 0);
      case END -> move(shown, shown.size() - 1);
      case ENTER -> openLog();
      case ESC -> {
        if (!filter.isEmpty()) filter = "";
        else message = said;
      }
      case CHAR -> {
        return listChar(key.ch(), shown, at, whole);
      }
      default -> { }
    }
    return REDRAW;
  }

  private Effect listChar(int c, List<Job> shown, int at, UnaryOperator<Job> whole) {
    switch (c) {
      case 'q' -> {
        return QUIT;
      }
      case 'k' -> move(shown, at - 1);
      case 'j' -> move(shown, at + 1);
      case 'g' -> move(shown, 0);
      case 'G' -> move(shown, shown.size() - 1);
      case 'l' -> openLog();
      case '?' -> mode = Mode.HELP;
      case 'f', '/' -> {
        typing.setLength(0);
        typing.append(filter);
        mode = Mode.FILTER;
      }
      case 'c' -> ask(Action.CANCEL, whole, shown, at);
      case 'h' -> ask(Action.HOLD, whole, shown, at);
      case 'r' -> ask(Action.RELEASE, whole, shown, at);
      case 'p' -> ask(Action.PREEMPT, whole, shown, at);
      default -> { }
    }
    return REDRAW;
  }

  private void openLog() {
    if (selection.selected() == null) message = "no job to show; the list is empty";
    else mode = Mode.LOG;
  }

  /** Asks before acting; a job the action cannot apply to gets the reason instead. */
  private void ask(Action a, UnaryOperator<Job> whole, List<Job> shown, int at) {
    if (at < 0) {
      message = "no job selected; move to one with the arrows";
      return;
    }
    Job job = whole.apply(shown.get(at));
    String why = refusal(a, job);
    if (why != null) {
      message = why;
      return;
    }
    pending = a;
    pendingJob = job.id();
    pendingName = JobColumn.name(job);
    mode = Mode.CONFIRM;
  }

  /** Why {@code a} cannot apply to {@code job} as the list shows it, or null. */
  static String refusal(Action a, Job job) {
    JobState s = job.state();
    return switch (a) {
      case CANCEL -> s.terminal() ? "job " + job.id() + " has ended (" + s + "); there is nothing to cancel" : null;
      case HOLD, RELEASE -> s == JobState.WAITING ? null
          : "job " + job.id() + " is " + s + "; only waiting jobs are " + (a == Action.HOLD ? "held" : "released");
      case PREEMPT -> s == JobState.RUNNING ? null : "job " + job.id() + " is " + s + "; only running jobs are preempted";
    };
  }

  private Effect confirm(Key key) {
    Action a = pending;
    pending = null;
    mode = Mode.LIST;
    if (isChar(key, 'y') || isChar(key, 'Y')) return new Act(a, pendingJob);
    message = "nothing changed";
    return REDRAW;
  }

  private Effect filterKey(Key key) {
    switch (key.kind()) {
      case ENTER -> {
        filter = typing.toString().strip();
        mode = Mode.LIST;
      }
      case ESC -> mode = Mode.LIST;
      case BACKSPACE -> {
        if (!typing.isEmpty()) typing.setLength(typing.length() - 1);
      }
      case CHAR -> {
        if (typing.length() < 64) typing.appendCodePoint(key.ch());
      }
      default -> { }
    }
    return REDRAW;
  }

  private void move(List<Job> shown, int to) {
    selection.move(shown, to);
  }

  private static boolean isChar(Key k, int c) {
    return k.kind() == TopKeys.Kind.CHAR && k.ch() == c;
  }
}
