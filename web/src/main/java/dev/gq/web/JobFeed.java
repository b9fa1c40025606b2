package dev.gq.web;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.progress.Estimate;
import java.io.IOException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/**
 * A job page's live updates for one browser: its facts when they change, and the lines its log
 * gains, from the byte the page was rendered up to. Looks once a tick; the log is read only when
 * it grew (one stat a tick otherwise). Sends a heartbeat when there was nothing to say.
 */
final class JobFeed {
  private final GqApi api;
  private final ZoneId zone;
  private final Duration tick;
  private final Duration heartbeat;

  JobFeed(GqApi api, ZoneId zone, Duration tick, Duration heartbeat) {
    this.api = api;
    this.zone = zone;
    this.tick = tick;
    this.heartbeat = heartbeat;
  }

  /** Follows job {@code id} for one browser until it goes or the job is gone. */
  void serve(SseStream out, long id, long from) throws IOException, InterruptedException, ApiException {
    String facts = null;
    long at = from;
    long quiet = 0;
    while (true) {
      Optional<Job> job = api.job(id);
      if (job.isEmpty()) return;
      Job j = job.get();
      boolean said = false;
      String now = Pages.facts(j, progress(j), api.waitReasons(List.of(id)).get(id), zone);
      if (!now.equals(facts)) {
        out.send("section", "job\n" + now);
        facts = now;
        said = true;
      }
      LogText log = LogText.since(api, j.logPath(), at);
      if (!log.text().isEmpty()) {
        out.send("log", log.text());
        said = true;
      }
      at = log.end();
      quiet = said ? 0 : quiet + tick.toMillis();
      if (quiet >= heartbeat.toMillis()) {
        out.heartbeat();
        quiet = 0;
      }
      Thread.sleep(tick.toMillis());
    }
  }

  private Estimate progress(Job j) throws ApiException {
    return j.state() == JobState.RUNNING ? api.progress(List.of(j.id())).get(j.id()) : null;
  }
}
