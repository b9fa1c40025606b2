package dev.gq.core.ledger;

/**
 * The words for a submit skipped because its key is taken, in one place for the daemon's reply
 * and the CLI's summaries: "Skipped: key 'k' is already DONE as job 3". The state is the holder's
 * (HELD for a waiting job of a held group, which the daemon follows with why it is held).
 */
public final class KeyTaken {
  private static final String SKIPPED = "Skipped: ";

  private KeyTaken() {}

  /** "Skipped: key 'k' is already STATE as job N". */
  public static String message(String key, Object state, long holder) {
    return SKIPPED + reason(key, state, holder);
  }

  /** "key 'k' is already STATE as job N"; "its key is already …" when the key is not known. */
  public static String reason(String key, Object state, long holder) {
    return (key == null ? "its key" : "key '" + key + "'") + " is already " + state + " as job " + holder;
  }

  /** A skip's message without its leading "Skipped: ", as a list of skipped lines shows it. */
  public static String reasonOf(String message) {
    return message.startsWith(SKIPPED) ? message.substring(SKIPPED.length()) : message;
  }
}
