package dev.gq.cli;

/**
 * The daemon's web page ({@code gq web}): a read-only view of the machine and of this user's jobs,
 * served on 127.0.0.1 to whoever has the secret token in its address, and the Prometheus metrics
 * beside it. The daemon implements it; {@link MachineApi#web} hands it to the command tree. At most
 * one page is served at a time, and it ends with the daemon.
 */
public interface WebControl {
  /**
   * Where the page is served: the port on 127.0.0.1, the token its address carries, and whether
   * {@code /metrics} answers without the token.
   */
  record Serving(int port, String token, boolean metricsOpen) {
    /** The address to open, token included. */
    public String url() {
      return "http://127.0.0.1:" + port + "/?token=" + token;
    }

    /** The address Prometheus scrapes. */
    public String metricsUrl() {
      return "http://127.0.0.1:" + port + "/metrics" + (metricsOpen ? "" : "?token=" + token);
    }
  }

  /** What {@code gq web} asks for: a port (0: one the system picks) and whether {@code /metrics} answers without the token. */
  record Options(int port, boolean metricsOpen) {}

  /**
   * Starts serving, or answers where it already serves when {@code options} ask for the same;
   * refused in one line (a port taken, a page already served otherwise).
   */
  Serving start(Options options) throws ApiException;

  /** Stops serving; false when nothing was served. */
  boolean stop();

  /** Where the page is served now; null when it is not. */
  Serving serving();
}
