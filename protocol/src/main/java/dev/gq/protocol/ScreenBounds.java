package dev.gq.protocol;

/**
 * The largest terminal the daemon draws for: a client that says its terminal is wider or taller
 * (a forged size, a misreading) is taken at this size, so that no screen it asks for costs the
 * daemon more than one of a real terminal. Sizes within the bounds are kept as they are.
 */
public final class ScreenBounds {
  /** More columns than any terminal window shows. */
  public static final int MAX_WIDTH = 1000;
  /** More lines than any terminal window shows. */
  public static final int MAX_HEIGHT = 500;

  private ScreenBounds() {}

  public static int width(int columns) {
    return Math.min(columns, MAX_WIDTH);
  }

  public static int height(int lines) {
    return Math.min(lines, MAX_HEIGHT);
  }
}
