package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import java.util.ArrayList;
import java.util.List;

/**
 * The section of {@code gq daemon status} that says how each part of the daemon is doing (the GPU
 * watcher, the history, the reconciler, the notifier, the cluster bridge): whether it works and
 * when it last did, or why not.
 */
final class PartsStatus {
  private PartsStatus() {}

  static List<String> status(GqApi api) throws ApiException {
    List<String> out = new ArrayList<>();
    for (String line : api.partLines()) out.add((out.isEmpty() ? "Parts:     " : "           ") + line);
    return out;
  }
}
