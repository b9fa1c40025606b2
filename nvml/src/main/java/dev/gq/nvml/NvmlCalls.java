package dev.gq.nvml;

import dev.gq.nvml.raw.NvmlLibrary;
import dev.gq.nvml.raw.NvmlReturn;
import java.nio.charset.StandardCharsets;

/** How the facade reads what an NVML call returned: its status code, and the C strings it filled in. */
final class NvmlCalls {
  private NvmlCalls() {}

  /**
   * Throws an {@link NvmlException} naming {@code function} unless {@code rc} is NVML_SUCCESS; its
   * message has NVML's own words for {@code rc} from {@code lib} (null: not loaded).
   */
  static void check(NvmlLibrary lib, String function, int rc) throws NvmlException {
    if (rc == NvmlReturn.NVML_SUCCESS.code()) return;
    throw new NvmlException(function, rc,
        function + " failed: " + NvmlReturn.nameOf(rc) + " (" + errorString(lib, rc) + ")");
  }

  private static String errorString(NvmlLibrary lib, int rc) {
    try {
      String text = lib == null ? null : lib.nvmlErrorString(rc);
      return text == null ? "no description" : text;
    } catch (RuntimeException | LinkageError e) {
      return "no description";
    }
  }

  /** A NUL-terminated C string from a fixed buffer. */
  static String cString(byte[] buf) {
    int end = 0;
    while (end < buf.length && buf[end] != 0) end++;
    return new String(buf, 0, end, StandardCharsets.UTF_8);
  }
}
