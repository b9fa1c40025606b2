package dev.gq.core.ledger;

import dev.gq.core.ledger.Trie.Collision;
import dev.gq.core.ledger.Trie.Node;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * An immutable map whose {@link #plus} and {@link #minus} return a new map sharing all but one
 * path with the old one (a hash trie of 32-way nodes), so the Ledger can change one job without
 * copying every other. Reads through {@link Map}; every mutator of {@link Map} throws. Iterates in
 * the unsigned order of the keys' hash codes, which for job ids (Long below 2^31) is numeric order.
 */
final class PersistentMap<K, V> extends AbstractMap<K, V> {
  private static final PersistentMap<?, ?> EMPTY = new PersistentMap<>(new Node(0, new Object[0]), 0);

  private final Node root;
  private final int size;

  private PersistentMap(Node root, int size) {
    this.root = root;
    this.size = size;
  }

  @SuppressWarnings("unchecked")
  static <K, V> PersistentMap<K, V> empty() {
    return (PersistentMap<K, V>) EMPTY;
  }

  /**
   * {@code m} itself when it already is one, else a copy, built at once: the trie {@link #plus} would
   * build entry by entry (entries of equal hashes in {@code m}'s order), without the paths each
   * step copies (a snapshot of 100,000 live jobs made 150 MiB of them).
   */
  @SuppressWarnings("unchecked")
  static <K, V> PersistentMap<K, V> of(Map<? extends K, ? extends V> m) {
    if (m == null || m.isEmpty()) return empty();
    if (m instanceof PersistentMap<?, ?> p) return (PersistentMap<K, V>) p;
    Entry<?, ?>[] given = new Entry<?, ?>[m.size()];
    long[] order = new long[given.length];
    int n = 0;
    for (Map.Entry<? extends K, ? extends V> e : m.entrySet()) {
      if (n == given.length) return slowly(m); // a map that changed while copied
      given[n] = new SimpleImmutableEntry<>(e.getKey(), e.getValue());
      // the unsigned hash, then the place in m: equal hashes keep m's order
      order[n] = (Integer.toUnsignedLong(Objects.hashCode(e.getKey())) << 31) | n;
      n++;
    }
    if (n < given.length) return slowly(m);
    Arrays.sort(order);
    Entry<?, ?>[] sorted = new Entry<?, ?>[n];
    int[] hashes = new int[n];
    for (int i = 0; i < n; i++) {
      sorted[i] = given[(int) (order[i] & Integer.MAX_VALUE)];
      hashes[i] = (int) (order[i] >>> 31);
    }
    return new PersistentMap<>(built(sorted, hashes, 0, n, 0), n);
  }

  private static <K, V> PersistentMap<K, V> slowly(Map<? extends K, ? extends V> m) {
    PersistentMap<K, V> out = empty();
    for (Map.Entry<? extends K, ? extends V> e : m.entrySet()) out = out.plus(e.getKey(), e.getValue());
    return out;
  }

  /**
   * The node at {@code level} of entries {@code from..to} of {@code sorted} (in unsigned order of
   * {@code hashes}, which agree in every slot above it): an entry alone in its slot sits there,
   * entries of one hash form a collision list, others a node one level down.
   */
  private static Node built(Entry<?, ?>[] sorted, int[] hashes, int from, int to, int level) {
    int bitmap = 0;
    for (int i = from; i < to; i++) bitmap |= 1 << slot(hashes[i], level);
    Object[] slots = new Object[Integer.bitCount(bitmap)];
    int k = 0;
    for (int i = from, j; i < to; i = j) {
      int s = slot(hashes[i], level);
      j = i + 1;
      while (j < to && slot(hashes[j], level) == s) j++;
      if (j - i == 1) slots[k++] = sorted[i];
      else if (hashes[i] == hashes[j - 1]) slots[k++] = new Collision(Arrays.copyOfRange(sorted, i, j, Object[].class));
      else slots[k++] = built(sorted, hashes, i, j, level + 1);
    }
    return new Node(bitmap, slots);
  }

  private static int slot(int hash, int level) {
    int shift = 27 - 5 * level;
    return shift >= 0 ? (hash >>> shift) & 31 : (hash << -shift) & 31;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean containsKey(Object key) {
    return find(key) != null;
  }

  @Override
  public V get(Object key) {
    Entry<K, V> e = find(key);
    return e == null ? null : e.getValue();
  }

  @SuppressWarnings("unchecked")
  private Entry<K, V> find(Object key) {
    int hash = Objects.hashCode(key);
    Node n = root;
    for (int level = 0; ; level++) {
      int bit = 1 << slot(hash, level);
      if ((n.bitmap() & bit) == 0) return null;
      Object s = n.slots()[Integer.bitCount(n.bitmap() & (bit - 1))];
      if (s instanceof Node child) n = child;
      else if (s instanceof Collision c) return (Entry<K, V>) Arrays.stream(c.entries()).map(x -> (Entry<K, V>) x)
          .filter(x -> Objects.equals(x.getKey(), key)).findFirst().orElse(null);
      else return Objects.equals(((Entry<K, V>) s).getKey(), key) ? (Entry<K, V>) s : null;
    }
  }

  /** This map with {@code key} mapped to {@code value}. */
  PersistentMap<K, V> plus(K key, V value) {
    boolean[] added = new boolean[1];
    Node r = put(root, 0, new SimpleImmutableEntry<>(key, value), Objects.hashCode(key), added);
    return new PersistentMap<>(r, size + (added[0] ? 1 : 0));
  }

  /** This map without {@code key} (itself when absent). */
  PersistentMap<K, V> minus(Object key) {
    if (!containsKey(key)) return this;
    return new PersistentMap<>(remove(root, 0, key, Objects.hashCode(key)), size - 1);
  }

  private static Node put(Node n, int level, Entry<?, ?> e, int hash, boolean[] added) {
    int bit = 1 << slot(hash, level);
    int pos = Integer.bitCount(n.bitmap() & (bit - 1));
    if ((n.bitmap() & bit) == 0) {
      added[0] = true;
      return new Node(n.bitmap() | bit, insert(n.slots(), pos, e));
    }
    Object s = n.slots()[pos];
    Object replaced;
    if (s instanceof Node child) replaced = put(child, level + 1, e, hash, added);
    else if (s instanceof Collision c && c.hash() == hash) replaced = collide(c.entries(), e, added);
    else if (s instanceof Collision c) {
      added[0] = true;
      replaced = split(c, c.hash(), e, hash, level + 1);
    } else {
      Entry<?, ?> old = (Entry<?, ?>) s;
      if (Objects.equals(old.getKey(), e.getKey())) replaced = e;
      else {
        added[0] = true;
        replaced = split(old, Objects.hashCode(old.getKey()), e, hash, level + 1);
      }
    }
    Object[] copy = n.slots().clone();
    copy[pos] = replaced;
    return new Node(n.bitmap(), copy);
  }

  /**
   * An entry or collision list {@code a} and a new entry {@code b} that share a slot at
   * {@code level - 1}: a node holding both, or one collision list when their hashes are equal.
   */
  private static Object split(Object a, int hashA, Entry<?, ?> b, int hashB, int level) {
    if (hashA == hashB) {
      Object[] first = a instanceof Collision c ? c.entries() : new Object[] {a};
      return new Collision(insert(first, first.length, b));
    }
    int sa = slot(hashA, level), sb = slot(hashB, level);
    if (sa == sb) return new Node(1 << sa, new Object[] {split(a, hashA, b, hashB, level + 1)});
    return new Node((1 << sa) | (1 << sb), sa < sb ? new Object[] {a, b} : new Object[] {b, a});
  }

  private static Collision collide(Object[] entries, Entry<?, ?> e, boolean[] added) {
    for (int i = 0; i < entries.length; i++) {
      if (Objects.equals(((Entry<?, ?>) entries[i]).getKey(), e.getKey())) {
        Object[] copy = entries.clone();
        copy[i] = e;
        return new Collision(copy);
      }
    }
    added[0] = true;
    return new Collision(insert(entries, entries.length, e));
  }

  private static Node remove(Node n, int level, Object key, int hash) {
    int bit = 1 << slot(hash, level);
    int pos = Integer.bitCount(n.bitmap() & (bit - 1));
    Object s = n.slots()[pos];
    Object replaced = null;
    if (s instanceof Node child) {
      Node c = remove(child, level + 1, key, hash);
      replaced = c.bitmap() == 0 ? null : c;
    } else if (s instanceof Collision c) {
      Object[] rest = Arrays.stream(c.entries()).filter(x -> !Objects.equals(((Entry<?, ?>) x).getKey(), key)).toArray();
      replaced = rest.length == 1 ? rest[0] : new Collision(rest);
    }
    if (replaced != null) {
      Object[] copy = n.slots().clone();
      copy[pos] = replaced;
      return new Node(n.bitmap(), copy);
    }
    Object[] copy = new Object[n.slots().length - 1];
    System.arraycopy(n.slots(), 0, copy, 0, pos);
    System.arraycopy(n.slots(), pos + 1, copy, pos, copy.length - pos);
    return new Node(n.bitmap() & ~bit, copy);
  }

  private static Object[] insert(Object[] a, int pos, Object x) {
    Object[] copy = new Object[a.length + 1];
    System.arraycopy(a, 0, copy, 0, pos);
    copy[pos] = x;
    System.arraycopy(a, pos, copy, pos + 1, a.length - pos);
    return copy;
  }

  @Override
  public Set<Entry<K, V>> entrySet() {
    return new AbstractSet<>() {
      @Override public Iterator<Entry<K, V>> iterator() {
        return new TrieWalk<>(root);
      }

      @Override public int size() {
        return size;
      }
    };
  }
}
