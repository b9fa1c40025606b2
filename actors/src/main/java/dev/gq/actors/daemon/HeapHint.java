package dev.gq.actors.daemon;

import dev.gq.actors.scheduler.Scheduler;
import dev.gq.core.health.DaemonHeap;
import dev.gq.core.ledger.Ledger;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notes the heap the queue needs ({@link DaemonHeap}) in {@code <data>/daemon-heap}, once the daemon
 * serves and then every minute when it changed, so that bin/gq-daemon starts the next daemon with a
 * heap that holds the queue it will replay (unless GQ_DAEMON_HEAP says otherwise). One line, such as
 * {@code 224m}, replaced whole; a hint only: the launcher ignores a file it cannot read.
 */
final class HeapHint implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(HeapHint.class);
  static final Duration EVERY = Duration.ofMinutes(1);

  private final ActorSystem<?> system;
  private final ActorRef<Scheduler.Command> scheduler;
  private final Path file;
  private String written;

  private HeapHint(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler, Path file) {
    this.system = system;
    this.scheduler = scheduler;
    this.file = file;
  }

  /** The file's place in the data directory {@code dataDir}. */
  static Path file(Path dataDir) {
    return dataDir.resolve("daemon-heap");
  }

  /** Notes the heap now and every {@link #EVERY}, on the blocking pool. */
  static void start(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler, Path dataDir) {
    system.scheduler().scheduleWithFixedDelay(Duration.ZERO, EVERY, new HeapHint(system, scheduler, file(dataDir)),
        system.dispatchers().lookup(DispatcherSelector.blocking()));
  }

  @Override
  public void run() {
    try {
      Ledger l = AskPattern.<Scheduler.Command, Ledger>ask(scheduler, Scheduler.GetLedger::new, Duration.ofSeconds(30),
          system.scheduler()).toCompletableFuture().get(31, TimeUnit.SECONDS);
      write(DaemonHeap.flag(l.live().size()));
    } catch (Exception e) {
      LOG.debug("cannot note the heap the queue needs: {}", e.toString());
    }
  }

  private void write(String heap) throws IOException {
    if (heap.equals(written)) return;
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, heap + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    written = heap;
  }
}
