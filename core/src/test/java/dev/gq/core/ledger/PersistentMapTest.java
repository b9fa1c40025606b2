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

  /** A key whose hash code is chosen, to reach the trie's deepest level. */
  private record Hashed(int hash, String name) {
    @Override public int hashCode() {
      return hash;
    }
  }

  @Test
  void theDeepestNodesAndTheirCollisionListsIterateInUnsignedHashOrder() {
    // hashes equal in all but their lowest bits sit in nodes seven levels down, and equal hashes
    // below them in a collision list
    int[] hashes = {0xFFFF_FFFF, 0xFFFF_FFFE, 0xFFFF_FFFC, 0x0000_0001, 0x0000_0000, 0x8000_0000, 0x7FFF_FFFF};
    PersistentMap<Hashed, Integer> m = PersistentMap.empty();
    List<Hashed> all = new ArrayList<>();
    for (int h : hashes) {
      for (String name : List.of("a", "b")) {
        Hashed k = new Hashed(h, name);
        all.add(k);
        m = m.plus(k, all.size());
      }
    }
    List<Hashed> walked = new ArrayList<>(m.keySet());
    assertEquals(all.size(), walked.size());
    assertEquals(all.size(), m.size());
    for (int i = 1; i < walked.size(); i++)
      assertTrue(Integer.compareUnsigned(walked.get(i - 1).hash(), walked.get(i).hash()) <= 0, walked.toString());
    for (int i = 0; i < all.size(); i++) assertEquals(i + 1, m.get(all.get(i)));
    PersistentMap<Hashed, Integer> less = m.minus(all.get(0)).minus(all.get(3));
    assertEquals(all.size() - 2, new ArrayList<>(less.entrySet()).size());
    assertFalse(less.containsKey(all.get(0)));
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
