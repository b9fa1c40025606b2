package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.CancelOutcome;
import dev.gq.api.GqApi;
import dev.gq.core.job.PrintableText;
import dev.gq.core.schedule.Preemptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.LineDisciplineTerminal;
import org.jline.utils.AttributedString;
import org.jline.utils.Display;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code gq top}: the live view. The daemon draws it: the client shows a full screen
 * ({@link Io#enterScreen}) and sends keys and sizes; this loop gathers what the daemon knows about
 * once a second ({@link TopReads}), draws it with {@link TopScreen}, and sends only what changed since the last screen
 * (JLine's {@link Display} over a terminal of the client's size that writes into a buffer). A key or
 * a new size redraws at once, reading first the jobs it brings into view. A client that cannot show
 * a full screen, or output that is not a terminal, gets one screen as plain text. A client that goes
 * ends the loop at its next turn: no screen is read or drawn for it after that.
 */
@Command(name = "top", description = "Watch the GPUs, jobs, groups and events live, full screen; keys act on jobs.",
    footer = {"", "Keys: arrows or j/k move, Enter or l opens the job's log (q/Esc back), c/h/r/p cancel, hold, release"
        + " or preempt it after a y/N question, f filters by group or state, ? shows help, q quits.",
        "With output that is not a terminal it prints one screen as text."})
final class TopCommand implements Callable<Integer> {
  /** How often the screen is redrawn without a key. */
  static final Duration TICK = Duration.ofSeconds(1);

  /** Words after {@code top}: the job a script of the old {@code gq top JOB} meant to move. */
  @Parameters(arity = "0..*", paramLabel = "ARG", hidden = true)
  List<String> words = List.of();

  private final Invocation inv;
  private final TopView view = new TopView();
  private final TopReads reads;

  TopCommand(Invocation inv) {
    this.inv = inv;
    this.reads = new TopReads(inv);
  }

  @Override
  public Integer call() throws Exception {
    if (words != null && !words.isEmpty()) {
      String job = words.stream().filter(w -> !w.startsWith("-")).findFirst().orElse(words.get(0));
      throw new UsageException("'gq top' no longer moves a job: 'gq urgent " + PrintableText.escape(job)
          + "' moves it to the front of the queue");
    }
    Io io = inv.io();
    if (!io.screen()) {
      int width = Math.max(40, io.width());
      TopData d = reads.gather(view, width, 0);
      for (AttributedString l : TopScreen.render(d, view, width, 0)) io.out().println(l.toString().stripTrailing());
      if (io.stdoutTty())
        io.err().println("gq: this client cannot show the live view, so this is one screen; the gq command"
            + " (the native client) shows it live in a terminal");
      return ExitCode.OK;
    }
    // the first screen's data before the full screen: a daemon that cannot answer says so on the normal screen
    TopData first = reads.gather(view, Math.max(20, io.width()), io.height() > 0 ? io.height() : 24);
    io.enterScreen();
    live(io, first);
    return ExitCode.OK;
  }

  private void live(Io io, TopData first) throws Exception {
    ByteArrayOutputStream sent = new ByteArrayOutputStream(16 * 1024);
    int width = Math.max(20, io.width());
    int height = io.height() > 0 ? io.height() : 24;
    try (Terminal term = new LineDisciplineTerminal("gq-top", "xterm-256color", sent, StandardCharsets.UTF_8)) {
      term.setSize(new Size(width, height));
      Display display = new Display(term, true);
      display.resize(height, width);
      display.clear();
      TopData data = first;
      long next = System.nanoTime() + TICK.toNanos();
      boolean dirty = true;
      while (!io.closed()) {
        if (System.nanoTime() - next >= 0) {
          try {
            data = reads.gather(view, width, height);
          } catch (ApiException e) {
            // shown on the last line; the screen keeps the last data and tries again in a second
            view.say("gq: " + e.getMessage());
          }
          next = System.nanoTime() + TICK.toNanos();
          dirty = true;
        }
        if (io.closed()) return; // the client went while the daemon was read: nothing more to draw
        if (dirty) {
          try {
            // a key or a new size may bring rows into view that were not read whole yet
            data = reads.detail(data, view, width, height);
          } catch (ApiException e) {
            view.say("gq: " + e.getMessage());
          }
          display.update(TopScreen.render(data, view, width, height), 0);
          term.flush();
          if (sent.size() > 0) {
            io.out().print(sent.toString(StandardCharsets.UTF_8));
            io.out().flush();
            sent.reset();
          }
          dirty = false;
        }
        Optional<ScreenInput> in = io.nextInput(Duration.ofNanos(Math.max(1, next - System.nanoTime())));
        if (in.isEmpty()) continue;
        switch (in.get()) {
          case ScreenInput.Gone g -> {
            return;
          }
          case ScreenInput.Resized r -> {
            width = Math.max(20, r.width());
            height = Math.max(5, r.height());
            term.setSize(new Size(width, height));
            display.resize(height, width);
            display.clear();
            dirty = true;
          }
          case ScreenInput.Typed t -> {
            TopView.Mode before = view.mode();
            for (TopKeys.Key k : TopKeys.parse(t.text())) {
              TopView.Effect e = view.press(k, TopScreen.shown(data, view), data::whole);
              if (e instanceof TopView.Quit) return;
              if (e instanceof TopView.Act a) {
                view.say(act(a));
                next = System.nanoTime();
              }
            }
            if (view.mode() != before) next = System.nanoTime();
            dirty = true;
          }
        }
      }
    }
  }

  /**
   * Draws one empty screen into a buffer, so that the daemon loads the screen's classes and the
   * terminal description when it starts: the first {@code gq top} then shows its screen at once,
   * and a daemon that later runs out of file descriptors already holds the library's jar open.
   */
  static void warm() {
    GqApi.GpuReport none = new GqApi.GpuReport(List.of(), "", false, null);
    TopData d = new TopData(Instant.EPOCH, ZoneOffset.UTC, none, Map.of(), Map.of(),
        List.of(), Map.of(), Map.of(), Map.of(), Set.of(), false, List.of(), List.of(), null, List.of());
    try (Terminal term = new LineDisciplineTerminal("gq-top", "xterm-256color", new ByteArrayOutputStream(),
        StandardCharsets.UTF_8)) {
      term.setSize(new Size(80, 24));
      Display display = new Display(term, true);
      display.resize(24, 80);
      display.update(TopScreen.render(d, new TopView(), 80, 24), 0);
      term.flush();
      TopKeys.parse("\u001b[A");
    } catch (IOException | RuntimeException e) {
      // only a warm-up: the first gq top loads what this did not
    }
  }

  /** Does a confirmed action through the calls its command makes; the line to show. */
  private String act(TopView.Act a) {
    GqApi api = inv.api();
    List<Long> ids = List.of(a.jobId());
    try {
      return switch (a.action()) {
        case CANCEL -> {
          List<CancelOutcome> out = api.cancel(ids);
          yield out.isEmpty() ? "job " + a.jobId() + ": nothing to cancel" : out.get(0).message();
        }
        case HOLD -> api.holdJobs(ids, true);
        case RELEASE -> api.holdJobs(ids, false);
        case PREEMPT -> String.join("; ", api.preempt(new Preemptions.PreemptAsk(ids, PreemptCommand.signal(null), false,
            PreemptCommand.DEFAULT_GRACE, null, false)));
      };
    } catch (ApiException e) {
      return "gq " + a.action().command + " " + a.jobId() + ": " + e.getMessage();
    }
  }
}
