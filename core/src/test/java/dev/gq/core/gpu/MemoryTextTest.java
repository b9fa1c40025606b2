package dev.gq.core.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.job.GpuNeed;
import org.junit.jupiter.api.Test;

class MemoryTextTest {
  @Test
  void memoryIsWrittenInGibWithOneDecimal() {
    assertEquals("79.6G", MemoryText.brief(81559), "an H100 sold as 80GB");
    assertEquals("24.0G", MemoryText.brief(24564), "an RTX 4090");
    assertEquals("1.0G", MemoryText.brief(1024));
    assertEquals("512M", MemoryText.brief(512), "a small amount in whole MiB, never 0.0G");
    assertEquals("999M", MemoryText.brief(999));
    assertEquals("1.0G", MemoryText.brief(1000), "never four digits of MiB");
    assertEquals("1 MiB", MemoryText.words(1));
    assertEquals("18.6 GiB", MemoryText.words(19074), "--vram 20G, as cards are labelled");
    assertEquals("20.0 GiB", MemoryText.words(20480));
  }

  @Test
  void usedOfTotalSharesOneUnit() {
    assertEquals("59.8/79.6G", MemoryText.usedOfTotal(61200, 81559));
    assertEquals("0.0/24.0G", MemoryText.usedOfTotal(0, 24564));
    assertEquals(81559, MemoryText.mib(81559L << 20));
  }

  @Test
  void theLargestAskOfACardIsRoundedDownSoThatCardFits() {
    assertEquals("79.6GiB", MemoryText.atMostOption(81559));
    assertEquals("23.9GiB", MemoryText.atMostOption(24564));
    for (long mib : new long[] {81559, 24564, 40536, 23034, 1000}) {
      Long asked = GpuNeed.parseMiB(MemoryText.atMostOption(mib));
      assertTrue(asked <= mib, mib + " MiB: " + asked);
    }
  }
}
