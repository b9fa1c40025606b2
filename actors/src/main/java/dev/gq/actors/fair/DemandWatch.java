package dev.gq.actors.fair;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells {@code changed} at once when a file {@code named} accepts appears, changes or goes in the
 * shared lease directory (inotify, through the JDK's watch service), so that another user's demand
 * is seen when it is written, not at the next GPU reading: a freed GPU is handed out with
 * everyone's newest demand. The directory may not exist yet (no gq has leased a GPU): {@link
 * #start} is asked again at each reading until it does. One thread, ended by {@link #close}.
 */
final class DemandWatch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DemandWatch.class);

  private final Path dir;
  private final Predicate<String> named;
  private final Runnable changed;
  private WatchService service;
  private boolean closed;

  DemandWatch(Path dir, Predicate<String> named, Runnable changed) {
    this.dir = dir;
    this.named = named;
    this.changed = changed;
  }

  /** Starts watching when the directory is there and no watch runs yet; a failure leaves the readings' pace. */
  synchronized void start() {
    if (service != null || closed || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return;
    try {
      service = dir.getFileSystem().newWatchService();
      dir.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
          StandardWatchEventKinds.ENTRY_DELETE);
    } catch (IOException | RuntimeException e) {
      LOG.info("cannot watch {} for other users' demand; it is read at each GPU reading: {}", dir, e.toString());
      closeQuietly();
      closed = true; // not tried again every second
      return;
    }
    WatchService s = service;
    Thread.ofPlatform().daemon().name("gq-demand-watch").start(() -> run(s));
  }

  private void run(WatchService s) {
    try {
      while (true) {
        WatchKey key = s.take();
        boolean relevant = false;
        for (WatchEvent<?> e : key.pollEvents())
          relevant |= e.kind() == StandardWatchEventKinds.OVERFLOW
              || e.context() instanceof Path p && named.test(p.getFileName().toString());
        if (relevant) changed.run();
        if (!key.reset()) break; // the directory went away: watched again once it is back
      }
      ended(s);
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // closed at stop
    } catch (RuntimeException e) {
      LOG.warn("the watch of other users' demand stopped; it is read at each GPU reading: {}", e.toString());
    }
  }

  private synchronized void ended(WatchService s) {
    if (service == s) closeQuietly();
  }

  @Override
  public synchronized void close() {
    closed = true;
    closeQuietly();
  }

  private void closeQuietly() {
    try {
      if (service != null) service.close();
    } catch (IOException e) {
      // nothing to keep
    }
    service = null;
  }
}
