package dev.gq.persistence;

/** The daemon must not use this database; the message is one line for the user, with what to do. */
public final class DatabaseRefused extends Exception {
  public DatabaseRefused(String message) {
    super(message);
  }
}
