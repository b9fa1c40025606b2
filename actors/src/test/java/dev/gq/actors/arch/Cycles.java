package dev.gq.actors.arch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Cycles in a directed graph of names: its strongly connected components of more than one node
 * (Tarjan's algorithm), each shown as one of the shortest cycles through its first node, in name
 * order so that a message reads the same on every run.
 */
final class Cycles {
  private final Map<String, Set<String>> edges = new TreeMap<>();

  /** Adds the arrow {@code from -> to}; an arrow from a node to itself is no cycle and is dropped. */
  void add(String from, String to) {
    edges.computeIfAbsent(from, k -> new TreeSet<>());
    edges.computeIfAbsent(to, k -> new TreeSet<>());
    if (!from.equals(to)) edges.get(from).add(to);
  }

  /** The tangles: each a sorted set of nodes that all reach each other, of two nodes or more. */
  List<Set<String>> tangles() {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<Set<String>> found = new ArrayList<>();
    for (String node : edges.keySet()) {
      if (!index.containsKey(node)) connect(node, index, low, stack, onStack, found);
    }
    found.sort((a, b) -> a.iterator().next().compareTo(b.iterator().next()));
    return found;
  }

  /** One shortest cycle through the first node of {@code tangle}, the first node repeated at its end. */
  List<String> cycle(Set<String> tangle) {
    String start = tangle.iterator().next();
    Map<String, String> cameFrom = new LinkedHashMap<>();
    Deque<String> queue = new ArrayDeque<>(List.of(start));
    while (!queue.isEmpty()) {
      String at = queue.removeFirst();
      for (String next : edges.get(at)) {
        if (!tangle.contains(next)) continue;
        if (next.equals(start)) {
          List<String> path = new ArrayList<>(List.of(start));
          for (String back = at; !back.equals(start); back = cameFrom.get(back)) path.add(1, back);
          path.add(start);
          return path;
        }
        if (cameFrom.putIfAbsent(next, at) == null) queue.addLast(next);
      }
    }
    throw new IllegalStateException("no cycle through " + start);
  }

  private void connect(String node, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
      Set<String> onStack, List<Set<String>> found) {
    // recursive: the graphs here are a few hundred nodes deep at most
    index.put(node, index.size());
    low.put(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (String next : edges.get(node)) {
      if (!index.containsKey(next)) {
        connect(next, index, low, stack, onStack, found);
        low.put(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.contains(next)) {
        low.put(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (!low.get(node).equals(index.get(node))) return;
    Set<String> tangle = new TreeSet<>();
    String member;
    do {
      member = stack.pop();
      onStack.remove(member);
      tangle.add(member);
    } while (!member.equals(node));
    if (tangle.size() > 1) found.add(tangle);
  }
}
