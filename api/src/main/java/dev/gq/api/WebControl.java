package dev.gq.api;

/**
 * The daemon's web page ({@code gq web}): a read-only view of the machine and of this user's jobs,
 * served on 127.0.0.1 to whoever has the secret token in its address, and the Prometheus metrics
 * beside it; or the lab's page ({@code gq web --lab}), only what every user of the machine may see,
 * on the address the admin names, with or without a token. The daemon implements it;
 * {@link MachineApi#web} hands it to the command tree. At most one page is served at a time, and it
 * ends with the daemon.
 */
public interface WebControl {
  /**
   * Where the page is served: the lab's page or this user's, the address and port, the token its
   * address carries (null: none is needed, the lab's page only), whether {@code /metrics}
   * answers without the token, and the folder of dcgm-exporter's job mapping kept beside it (null:
   * none).
   */
  record Serving(boolean lab, String host, int port, String token, boolean metricsOpen, String jobMappingDir) {
    /** The address to open, token included. */
    public String url() {
      return base() + "/" + (token == null ? "" : "?token=" + token);
    }

    /** The address Prometheus scrapes. */
    public String metricsUrl() {
      return base() + "/metrics" + (metricsOpen || token == null ? "" : "?token=" + token);
    }

    private String base() {
      return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
  }

  /**
   * What {@code gq web} asks for: the lab's page or this user's, the address (127.0.0.1 for this
   * user's page) and port (0: one the system picks), whether a token is required (always for this
   * user's page), whether {@code /metrics} answers without it, and an absolute folder to keep
   * dcgm-exporter's job mapping in (null: none).
   */
  record Options(boolean lab, String host, int port, boolean token, boolean metricsOpen, String jobMappingDir) {
    /** This user's page on 127.0.0.1, behind a token. */
    public static Options own(int port, boolean metricsOpen, String jobMappingDir) {
      return new Options(false, "127.0.0.1", port, true, metricsOpen, jobMappingDir);
    }
  }

  /**
   * Starts serving, or answers where it already serves when {@code options} ask for the same;
   * refused in one line (an address or port taken, a page already served otherwise).
   */
  Serving start(Options options) throws ApiException;

  /** Stops serving; false when nothing was served. */
  boolean stop();

  /** Where the page is served now; null when it is not. */
  Serving serving();
}
