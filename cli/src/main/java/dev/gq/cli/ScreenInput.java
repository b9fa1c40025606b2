package dev.gq.cli;

/** What a client in full screen sends while {@code gq top} runs: keys, a new size, or that it has gone. */
public sealed interface ScreenInput {
  /** Bytes the terminal gave for what the user typed ({@link TopKeys} reads them). */
  record Typed(String text) implements ScreenInput {}

  /** The terminal's new size. */
  record Resized(int width, int height) implements ScreenInput {}

  /** The client closed its connection (it quit, or was killed). */
  record Gone() implements ScreenInput {}
}
