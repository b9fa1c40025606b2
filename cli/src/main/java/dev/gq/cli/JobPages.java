package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A list of jobs handed over a page at a time, newest first, so that a list of any length costs a
 * page of memory: the jobs in {@code states} (of {@code group}, when not null) read in pages of
 * {@value PsPages#PAGE}, and a short list of others ({@code merged}, newest first) merged in by
 * id. Each pass reads the list again, the next page while the caller writes one; a pass stops when
 * the client has gone. The ids of rows that cannot be read are added to {@code unreadable}.
 */
final class JobPages {
  private final Invocation inv;
  private final Set<JobState> states;
  private final String group;
  private final List<Job> merged;
  private final Set<Long> unreadable;
  private final boolean logPaths;

  /** What a pass does with each page. */
  interface Each {
    void accept(List<Job> page) throws ApiException;
  }

  /** {@code logPaths}: the jobs read with their log paths (a table shows none: {@link ListingApi#listingPage}). */
  JobPages(Invocation inv, Set<JobState> states, String group, List<Job> merged, Set<Long> unreadable, boolean logPaths) {
    this.inv = inv;
    this.states = Set.copyOf(states);
    this.group = group;
    this.merged = List.copyOf(merged);
    this.unreadable = unreadable;
    this.logPaths = logPaths;
  }

  /**
   * Calls {@code each} with the list a page at a time, newest first (never with an empty page); the
   * next page is read meanwhile, on a thread of its own, so that at most two pages are held.
   */
  void each(Each each) throws ApiException {
    JobQuery q = new JobQuery(List.of(), states, group, 0);
    JobPage rows = states.isEmpty() ? new JobPage(List.of(), List.of()) : read(q.page(0, PsPages.PAGE));
    int e = 0;
    while (!inv.io().closed()) {
      List<Job> page = new ArrayList<>(rows.jobs().size());
      for (Job j : rows.jobs()) {
        while (e < merged.size() && merged.get(e).id() > j.id()) page.add(merged.get(e++));
        page.add(j);
      }
      boolean last = rows.rows() < PsPages.PAGE;
      if (last) page.addAll(merged.subList(e, merged.size()));
      CompletableFuture<JobPage> next = last ? null : ahead(q.page(rows.lowestId(), PsPages.PAGE));
      if (!page.isEmpty()) each.accept(page);
      if (last) return;
      rows = taken(next);
    }
  }

  /** The page of {@code q}, read now (the first: nothing is written meanwhile). */
  private JobPage read(JobQuery q) throws ApiException {
    return counted(inv.api().listingPage(q, logPaths));
  }

  /** {@code page}, its unreadable rows noted. */
  private JobPage counted(JobPage page) {
    unreadable.addAll(page.unreadable());
    return page;
  }

  /** The page of {@code q}, read on a virtual thread while the caller writes the page before. */
  private CompletableFuture<JobPage> ahead(JobQuery q) {
    CompletableFuture<JobPage> page = new CompletableFuture<>();
    Thread.ofVirtual().name("gq-listing-read").start(() -> {
      try {
        page.complete(inv.api().listingPage(q, logPaths));
      } catch (Throwable t) {
        page.completeExceptionally(t);
      }
    });
    return page;
  }

  /** The page read ahead, once read; a refusal or failure of the read is thrown as it was. */
  private JobPage taken(CompletableFuture<JobPage> ahead) throws ApiException {
    JobPage page;
    try {
      page = ahead.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException("interrupted");
    } catch (ExecutionException e) {
      switch (e.getCause()) {
        case ApiException a -> throw a;
        case RuntimeException r -> throw r;
        case Error err -> throw err;
        default -> throw new IllegalStateException(e.getCause());
      }
    }
    return counted(page);
  }
}
