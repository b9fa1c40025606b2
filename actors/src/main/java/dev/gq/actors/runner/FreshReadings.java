package dev.gq.actors.runner;

import java.util.function.Supplier;

/**
 * Readings that each caller needs begun after it asked (a GPU reading after a job's end, so that it
 * cannot miss a process that opened a context since), shared between callers: one reading at a
 * time; who asks while one is being taken waits for the next, which one of them takes for all of
 * them. Four jobs that end at once cost one or two readings, not four, and none of them is answered
 * by a reading begun before it asked. A reading that fails fails for all who waited for it. Blocks.
 */
public final class FreshReadings<T> implements Supplier<T> {
  private final Supplier<T> read;
  /** How many readings were begun, and how many of those ended; the result is of the last ended. */
  private long begun;
  private long ended;
  private boolean taking;
  private T last;
  private RuntimeException failed;
  private int waiting;

  public FreshReadings(Supplier<T> read) {
    this.read = read;
  }

  /** How many callers wait for a reading (for tests). */
  synchronized int waiting() {
    return waiting;
  }

  @Override
  public T get() {
    long mine;
    synchronized (this) {
      // any reading begun from now on will do: the next one
      long wanted = begun + 1;
      while (true) {
        if (ended >= wanted) {
          if (failed != null) throw failed;
          return last;
        }
        if (!taking) {
          taking = true;
          mine = ++begun;
          break;
        }
        try {
          waiting++;
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for a GPU reading", e);
        } finally {
          waiting--;
        }
      }
    }
    T result = null;
    RuntimeException failure = null;
    try {
      result = read.get();
    } catch (RuntimeException e) {
      failure = e;
    } catch (Error e) {
      failure = new IllegalStateException("the reading failed: " + e, e);
      throw e;
    } finally {
      // whatever happened, the next caller may take a reading: none waits for ever
      synchronized (this) {
        ended = mine;
        last = result;
        failed = failure;
        taking = false;
        notifyAll();
      }
    }
    if (failure != null) throw failure;
    return result;
  }
}
