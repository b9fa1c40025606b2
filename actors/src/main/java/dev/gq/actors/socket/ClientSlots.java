package dev.gq.actors.socket;

import java.util.concurrent.Semaphore;

/**
 * The room the daemon has for clients, in the two budgets of {@link ClientLimit}. A new connection
 * takes a request slot, or, when they are all taken, a free stream slot: nobody knows yet what it
 * will ask, and a burst of followers must not be refused for arriving together. A command that
 * becomes a stream (it follows a log, a job or the events until its caller goes) keeps a stream
 * slot, moving to one and giving its request slot back, or is refused when none is free; so
 * however many streams are open, short commands find the request slots free. Each {@link Slot} is
 * given back once, to the budget it is in, when its connection has been served. Thread-safe.
 */
final class ClientSlots {
  private final Semaphore requests;
  private final Semaphore streams;

  ClientSlots(ClientLimit limit) {
    this.requests = new Semaphore(limit.max());
    this.streams = new Semaphore(limit.maxStreams());
  }

  /** A slot for a new connection, or null when every one is taken. */
  Slot take() {
    if (requests.tryAcquire()) return new Slot(requests);
    return streams.tryAcquire() ? new Slot(streams) : null;
  }

  /** Request slots free now. */
  int freeRequests() {
    return requests.availablePermits();
  }

  /** Stream slots free now. */
  int freeStreams() {
    return streams.availablePermits();
  }

  /** One connection's place: in one budget or the other, and a stream once {@link #toStream()} said so. */
  final class Slot {
    private Semaphore budget;
    private boolean stream;
    private boolean released;

    private Slot(Semaphore budget) {
      this.budget = budget;
    }

    /** Makes this connection a stream in the streams' budget; false (and not a stream) when that is full. */
    synchronized boolean toStream() {
      if (released) return false;
      if (budget != streams) {
        if (!streams.tryAcquire()) return false;
        requests.release();
        budget = streams;
      }
      stream = true;
      return true;
    }

    synchronized boolean stream() {
      return stream;
    }

    /** Gives the slot back to its budget; later calls do nothing. */
    synchronized void release() {
      if (released) return;
      released = true;
      budget.release();
    }
  }
}
