package dev.gq.core.health;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.GpuHealth;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnwellTest {
  private static GpuHealth xids(Integer... xids) {
    return new GpuHealth(List.of(xids), null, false, false, false);
  }

  @Test
  void applicationXidsLeaveTheGpuWell() {
    for (int xid : new int[] {13, 31, 43, 45, 68}) {
      assertFalse(Unwell.critical(xid), "Xid " + xid);
      assertNull(Unwell.arisen(GpuHealth.NONE, xids(xid)));
    }
    assertTrue(Unwell.critical(79));
    assertTrue(Unwell.critical(48));
  }

  @Test
  void aCriticalXidNamesItsMeaning() {
    assertEquals("Xid 79: fell off the bus", Unwell.arisen(null, xids(13, 79)));
    assertEquals("Xid 48: double-bit ECC error", Unwell.xidReason(48));
    assertEquals("Xid 154: critical error", Unwell.xidReason(154));
  }

  @Test
  void eachHealthReportArisingMakesTheGpuUnwell() {
    assertEquals("3 uncorrectable ECC errors", Unwell.arisen(GpuHealth.NONE, new GpuHealth(List.of(), 3L, false, false, false)));
    assertEquals("1 uncorrectable ECC error", Unwell.arisen(GpuHealth.NONE, new GpuHealth(List.of(), 1L, false, false, false)));
    assertEquals("retired memory pages wait for a GPU reset",
        Unwell.arisen(GpuHealth.NONE, new GpuHealth(List.of(), 0L, true, false, false)));
    assertEquals("a memory row remapping failed", Unwell.arisen(GpuHealth.NONE, new GpuHealth(List.of(), 0L, false, true, false)));
    assertEquals("Xid 79: fell off the bus", Unwell.arisen(GpuHealth.NONE, GpuHealth.gone()));
    assertNull(Unwell.arisen(GpuHealth.NONE, new GpuHealth(List.of(), 0L, false, false, false)), "no ECC error is well");
  }

  @Test
  void aLastingConditionCountsOnceAndAGrowingEccCountAgain() {
    var three = new GpuHealth(List.of(), 3L, true, true, true);
    assertNull(Unwell.arisen(three, three), "nothing new: a resumed GPU stays given back");
    assertNull(Unwell.arisen(xids(79), xids(79)));
    assertEquals("5 uncorrectable ECC errors", Unwell.arisen(three, new GpuHealth(List.of(), 5L, true, true, true)));
  }

  @Test
  void everyProblemIsListed() {
    var all = new GpuHealth(List.of(79, 13, 79), 2L, true, true, false);
    assertEquals(List.of("Xid 79: fell off the bus", "2 uncorrectable ECC errors", "retired memory pages wait for a GPU reset",
        "a memory row remapping failed"), Unwell.problems(all));
    assertEquals(List.of(), Unwell.problems(GpuHealth.NONE));
  }

  @Test
  void aHealthDrainIsToldFromTheUsers() {
    assertTrue(Unwell.byHealth("unwell: Xid 79: fell off the bus"));
    assertEquals("Xid 79: fell off the bus", Unwell.problem("unwell: Xid 79: fell off the bus"));
    assertFalse(Unwell.byHealth("kept for notebooks"));
    assertFalse(Unwell.byHealth(null));
  }
}
