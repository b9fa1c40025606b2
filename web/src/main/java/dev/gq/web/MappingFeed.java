package dev.gq.web;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a {@link JobMapping} true while the page is served: one look at the GPUs through the call
 * {@code gq gpu} makes at the start (whose failure refuses the start) and then every tick, whether
 * or not a browser follows; a look or a write that fails is tried again at the next tick. Closing
 * it empties the files.
 */
final class MappingFeed implements AutoCloseable {
  private final JobMapping mapping;
  private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "gq-web-mapping");
    t.setDaemon(true);
    return t;
  });

  private MappingFeed(JobMapping mapping) {
    this.mapping = mapping;
  }

  static MappingFeed start(JobMapping mapping, GqApi api, Duration tick) throws ApiException, IOException {
    mapping.write(api.gpus().gpus());
    MappingFeed feed = new MappingFeed(mapping);
    feed.ticks.scheduleWithFixedDelay(() -> feed.look(api), tick.toMillis(), tick.toMillis(), TimeUnit.MILLISECONDS);
    return feed;
  }

  private void look(GqApi api) {
    try {
      mapping.write(api.gpus().gpus());
    } catch (ApiException | IOException | RuntimeException e) {
      // the next tick tries again
    }
  }

  @Override
  public void close() {
    ticks.shutdownNow();
    try {
      ticks.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    mapping.close();
  }
}
