package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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

  /** The same map built entry by entry with {@link PersistentMap#plus}. */
  private static <K, V> PersistentMap<K, V> stepwise(Map<K, V> m) {
    PersistentMap<K, V> out = PersistentMap.empty();
    for (Map.Entry<K, V> e : m.entrySet()) out = out.plus(e.getKey(), e.getValue());
    return out;
  }

  @Test
  void aMapBuiltAtOnceIsTheOneBuiltStepByStepAndChangesAlike() {
    Random rnd = new Random(7);
    LinkedHashMap<Long, String> given = new LinkedHashMap<>();
    for (int i = 0; i < 30_000; i++) given.put(rnd.nextLong(-(1L << 40), 1L << 40) >> rnd.nextInt(40), "v" + i);
    PersistentMap<Long, String> once = PersistentMap.of(given);
    PersistentMap<Long, String> steps = stepwise(given);
    assertEquals(given.size(), once.size());
    assertEquals(new ArrayList<>(steps.entrySet()), new ArrayList<>(once.entrySet()), "same entries in the same order");
    for (Long k : given.keySet()) assertEquals(given.get(k), once.get(k));
    assertNull(once.get(12345678901234L));
    Long some = given.keySet().iterator().next();
    assertEquals(new ArrayList<>(steps.minus(some).plus(-1L, "x").entrySet()),
        new ArrayList<>(once.minus(some).plus(-1L, "x").entrySet()));
  }

  @Test
  void aMapBuiltAtOnceKeepsEqualHashesApartInTheGivenOrderDownToTheDeepestLevel() {
    LinkedHashMap<Hashed, Integer> given = new LinkedHashMap<>();
    int[] hashes = {0xFFFF_FFFF, 0xFFFF_FFFE, 0x0000_0001, 0xFFFF_FFFE, 0x0000_0000, 0x8000_0000, 0x7FFF_FFFF};
    for (int i = 0; i < hashes.length; i++)
      for (String name : List.of("b", "a", "c")) given.put(new Hashed(hashes[i], name + i), given.size());
    given.put(new Hashed(0x1234_5678, "alone"), given.size());
    PersistentMap<Hashed, Integer> once = PersistentMap.of(given);
    assertEquals(new ArrayList<>(stepwise(given).entrySet()), new ArrayList<>(once.entrySet()));
    given.forEach((k, v) -> assertEquals(v, once.get(k)));
    assertEquals(given.size() - 1, once.minus(new Hashed(0xFFFF_FFFE, "a1")).size());
    assertFalse(once.minus(new Hashed(0xFFFF_FFFE, "a1")).containsKey(new Hashed(0xFFFF_FFFE, "a1")));
    assertTrue(once.minus(new Hashed(0xFFFF_FFFE, "a1")).containsKey(new Hashed(0xFFFF_FFFE, "a3")));
  }

  @Test
  void anEmptyOrOneEntryMapBuildsAtOnceToo() {
    assertEquals(Map.of(), PersistentMap.of(Map.of()));
    assertSame(PersistentMap.empty(), PersistentMap.of(new HashMap<>()));
    assertEquals(Map.of(3L, "x"), PersistentMap.of(Map.of(3L, "x")));
    assertEquals(Map.of(3L, "x", 4L, "y"), PersistentMap.of(Map.of(3L, "x")).plus(4L, "y"));
  }
}
