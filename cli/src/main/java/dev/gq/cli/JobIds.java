package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import java.util.ArrayList;
import java.util.List;

/**
 * The ids of the jobs a query selects, read newest first a page at a time, so that a selection as
 * long as the whole history never holds more than one page of jobs.
 */
final class JobIds {
  static final int PAGE = 500;

  private JobIds() {}

  static List<Long> of(GqApi api, JobQuery q) throws ApiException {
    List<Long> out = new ArrayList<>();
    List<Job> page = api.jobs(q.page(0, PAGE));
    while (!page.isEmpty()) {
      page.forEach(j -> out.add(j.id()));
      page = page.size() < PAGE ? List.of() : api.jobs(q.page(page.get(page.size() - 1).id(), PAGE));
    }
    return out;
  }
}
