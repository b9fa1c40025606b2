package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The ledger's persistent map behaves like a map, never changes in place, and iterates ids in order. */
class PersistentMapTest {

  @Test
  void randomPlusAndMinusAgreeWithATreeMapAndIterateInIdOrder() {
    Random rnd = new Random(42);
    TreeMap<Long, String> model = new TreeMap<>();
    PersistentMap<Long, String> m = PersistentMap.empty();
    for (int step = 0; step < 20_000; step++) {
      long k = rnd.nextInt(5_000) + (step % 7 == 0 ? 1L << 20 : 0);
      if (rnd.nextInt(3) == 0) {
        model.remove(k);
        m = m.minus(k);
      } else {
        model.put(k, "v" + step);
        m = m.plus(k, "v" + step);
      }
    }
    assertEquals(model.size(), m.size());
    assertEquals(model, m);
    assertEquals(new ArrayList<>(model.keySet()), new ArrayList<>(m.keySet()));
    for (long k = 0; k < 5_000; k++) assertEquals(model.get(k), m.get(k));
  }

  @Test
  void keysWithEqualHashCodesAreKeptApart() {
    assertEquals("Aa".hashCode(), "BB".hashCode());
    PersistentMap<String, Integer> m = PersistentMap.<String, Integer>empty().plus("Aa", 1).plus("BB", 2).plus("C", 3);
    assertEquals(Map.of("Aa", 1, "BB", 2, "C", 3), new HashMap<>(m));
    PersistentMap<String, Integer> less = m.minus("Aa");
    assertEquals(Map.of("BB", 2, "C", 3), new HashMap<>(less));
    assertEquals(3, m.size());
    assertEquals(1, m.get("Aa"));
    assertEquals(5, less.plus("BB", 5).get("BB"));
  }

  @Test
  void anUpdateLeavesTheOldMapAsItWas() {
    PersistentMap<Long, String> a = PersistentMap.<Long, String>empty().plus(1L, "x").plus(2L, "y");
    PersistentMap<Long, String> b = a.plus(2L, "z").minus(1L);
    assertEquals(Map.of(1L, "x", 2L, "y"), a);
    assertEquals(Map.of(2L, "z"), b);
    assertSame(b, b.minus(99L));
  }

  @Test
  void theMapCannotBeChangedThroughTheMapInterface() {
    Map<Long, String> m = PersistentMap.<Long, String>empty().plus(1L, "x");
    assertThrows(UnsupportedOperationException.class, () -> m.put(2L, "y"));
    assertThrows(UnsupportedOperationException.class, () -> m.remove(1L));
    assertThrows(UnsupportedOperationException.class, m::clear);
    assertThrows(UnsupportedOperationException.class, () -> m.values().clear());
  }

  @Test
  void aHundredThousandKeysStayCheapToChange() {
    PersistentMap<String, Long> m = PersistentMap.empty();
    for (long i = 0; i < 100_000; i++) m = m.plus("cell-" + i, i);
    PersistentMap<String, Long> changed = m.plus("cell-5", -1L);
    assertEquals(100_000, changed.size());
    assertEquals(-1L, changed.get("cell-5"));
    assertEquals(5L, m.get("cell-5"));
    List<String> firstTen = changed.keySet().stream().limit(10).toList();
    assertEquals(10, firstTen.size());
  }
}
