package dev.gq.core.ledger;

import java.util.Iterator;
import java.util.Map.Entry;
import java.util.NoSuchElementException;

/** A walk over a {@link PersistentMap}'s trie, depth-first in slot order: entries come out in the unsigned order of their hashes. */
final class TrieWalk<K, V> implements Iterator<Entry<K, V>> {
  /** Levels 0-6 split a 32-bit hash five bits at a time; a collision list may sit below the last. */
  private static final int MAX_DEPTH = 8;
  private final Object[][] arrays = new Object[MAX_DEPTH][];
  private final int[] positions = new int[MAX_DEPTH];
  private int depth;
  private Entry<K, V> next;

  TrieWalk(Trie.Node root) {
    arrays[0] = root.slots();
    depth = 1;
    advance();
  }

  @SuppressWarnings("unchecked")
  private void advance() {
    while (depth > 0) {
      int d = depth - 1;
      Object[] a = arrays[d];
      int i = positions[d];
      if (i >= a.length) {
        arrays[d] = null;
        positions[d] = 0;
        depth = d;
        continue;
      }
      positions[d] = i + 1;
      Object s = a[i];
      if (s instanceof Trie.Node child) arrays[depth++] = child.slots();
      else if (s instanceof Trie.Collision c) arrays[depth++] = c.entries();
      else {
        next = (Entry<K, V>) s;
        return;
      }
    }
    next = null;
  }

  @Override public boolean hasNext() {
    return next != null;
  }

  @Override public Entry<K, V> next() {
    if (next == null) throw new NoSuchElementException();
    Entry<K, V> out = next;
    advance();
    return out;
  }
}
