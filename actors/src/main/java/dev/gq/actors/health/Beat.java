package dev.gq.actors.health;

/**
 * How a part tells {@link PartHealth} that it did a unit of its work, or that the unit failed while
 * the part itself runs on (a history write refused by a full disk, say). Thread-safe.
 */
public interface Beat {
  /** A beat that goes nowhere (tests that do not look at health). */
  Beat NONE = new Beat() {
    @Override public void worked() {}
    @Override public void failing(String why) {}
  };

  void worked();

  /** The last unit of work failed for {@code why} (one line); the part tries again by itself. */
  void failing(String why);
}
