package dev.gq.nvml;

import dev.gq.nvml.raw.NvmlReturn;

/**
 * An NVML call that did not succeed, or a library that could not be loaded. {@link #code()} is
 * the {@code nvmlReturn_t} ({@code NVML_ERROR_LIBRARY_NOT_FOUND} when loading failed) and the
 * message is one line a user can read: the function, the code's C name and the driver's text.
 */
public final class NvmlException extends Exception {

  private final String function;
  private final int code;

  public NvmlException(String function, int code, String message) {
    super(message);
    this.function = function;
    this.code = code;
  }

  /** The C function that failed, e.g. {@code nvmlDeviceGetUUID}. */
  public String function() {
    return function;
  }

  public int code() {
    return code;
  }

  /** The C name of the code, e.g. {@code NVML_ERROR_GPU_IS_LOST}. */
  public String codeName() {
    return NvmlReturn.nameOf(code);
  }
}
