package dev.gq.protocol;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReleaseTest {
  @Test
  void theVersionIsTheBuildsProjectVersion() {
    assertTrue(Release.VERSION.matches("\\d+\\.\\d+\\.\\d+(-[A-Za-z0-9.]+)?"), Release.VERSION);
  }
}
