package dev.gq.persistence;

import dev.gq.core.job.Job;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The decoded listing documents (jobs without their environments) of the history's rows, by id,
 * the most recently used kept up to a bound. A listing of thousands of waiting jobs then decodes
 * only the rows written since it last ran. {@link JobHistory} is the one writer of its rows and
 * forgets a job's entry whenever it writes or deletes that row, under its own lock, so an entry is
 * always the row as stored; used under that lock only.
 */
final class ListingCache {
  private final Map<Long, Job> jobs;

  ListingCache(int capacity) {
    this.jobs = new LinkedHashMap<>(64, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, Job> eldest) {
        return size() > capacity;
      }
    };
  }

  /** Job {@code id} as last decoded, or null. */
  Job get(long id) {
    return jobs.get(id);
  }

  void put(Job j) {
    jobs.put(j.id(), j);
  }

  /** Drops the entries of jobs whose rows are written or deleted. */
  void forget(Collection<Long> ids) {
    for (Long id : ids) jobs.remove(id);
  }

  void forget(long id) {
    jobs.remove(id);
  }

  void clear() {
    jobs.clear();
  }

  int size() {
    return jobs.size();
  }
}
