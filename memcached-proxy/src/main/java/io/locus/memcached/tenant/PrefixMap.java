package io.locus.memcached.tenant;

import java.util.HashMap;
import java.util.Map;

/**
 * Longest-prefix match over key prefixes, as a trie of chars (one char per key byte).
 *
 * <p>Not thread-safe while being built; safe to share for lookups once built. Lookup is O(key length).
 *
 * @param <V> what a prefix maps to
 */
public final class PrefixMap<V> {
  private static final class Node<V> {
    final Map<Character, Node<V>> children = new HashMap<>();
    V value;
  }

  private final Node<V> root = new Node<>();
  private int size;

  /**
   * Maps {@code prefix} to {@code value}.
   *
   * @throws IllegalArgumentException if the prefix is already mapped (two rules for one prefix are a config error)
   */
  public void put(String prefix, V value) {
    Node<V> n = root;
    for (int i = 0; i < prefix.length(); i++) {
      n = n.children.computeIfAbsent(prefix.charAt(i), c -> new Node<>());
    }
    if (n.value != null) {
      throw new IllegalArgumentException("prefix \"" + prefix + "\" is mapped twice (to " + n.value + " and " + value
          + "; expected: each prefix once)");
    }
    n.value = value;
    size++;
  }

  /** The value of the longest mapped prefix of {@code key}, or null. */
  public V longestPrefixOf(String key) {
    Node<V> n = root;
    V best = n.value;
    for (int i = 0; i < key.length() && n != null; i++) {
      n = n.children.get(key.charAt(i));
      if (n != null && n.value != null) {
        best = n.value;
      }
    }
    return best;
  }

  public int size() {
    return size;
  }
}
