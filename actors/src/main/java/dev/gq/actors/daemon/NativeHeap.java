package dev.gq.actors.daemon;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * Hands the C library's free memory back to the system ({@code malloc_trim(0)}, glibc). On a C
 * library without it (musl) it does nothing, once it has found that out.
 */
final class NativeHeap {
  /** The raw binding; C names verbatim. */
  interface C extends Library {
    int malloc_trim(long pad);
  }

  private static volatile C lib = load();

  private NativeHeap() {}

  private static C load() {
    try {
      return Native.load("c", C.class);
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      return null;
    }
  }

  /** Whether memory was trimmed. */
  static boolean trim() {
    C c = lib;
    if (c == null) return false;
    try {
      return c.malloc_trim(0) == 1;
    } catch (UnsatisfiedLinkError e) {
      lib = null;
      return false;
    }
  }
}
