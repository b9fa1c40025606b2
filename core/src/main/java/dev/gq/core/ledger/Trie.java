package dev.gq.core.ledger;

import java.util.Map.Entry;
import java.util.Objects;

/** The parts of a {@code PersistentMap}'s trie, which {@code TrieWalk} walks. */
final class Trie {
  private Trie() {}

  /** A trie node: a bitmap of used slots and, in slot order, entries, child nodes or collision lists. */
  record Node(int bitmap, Object[] slots) {}

  /** Entries whose full hashes are equal, in insertion order. */
  record Collision(Object[] entries) {
    int hash() {
      return Objects.hashCode(((Entry<?, ?>) entries[0]).getKey());
    }
  }
}
