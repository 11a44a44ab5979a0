extension PersistentOrderedMap: Sequence {
  /// Iterates over a range of positions in key order, with a stack of the nodes still to visit:
  /// O(log n) to start, O(1) amortised per entry.
  @usableFromInline
  package struct Iterator: IteratorProtocol {
    @usableFromInline var stack: [Node] = []
    @usableFromInline var remaining: Int

    /// An iterator over the `count` entries from position `start` of the tree under `root`.
    @inlinable
    init(root: Node?, start: Int, count: Int) {
      remaining = count
      guard count > 0 else { return }
      stack.reserveCapacity(3 * (Int.bitWidth - (root?.count ?? 0).leadingZeroBitCount) + 2)
      var node = root
      var skip = start
      while let current = node {
        let leftCount = current.left?.count ?? 0
        if skip < leftCount {
          stack.append(current)
          node = current.left
        } else if skip == leftCount {
          stack.append(current)
          node = nil
        } else {
          skip -= leftCount + 1
          node = current.right
        }
      }
    }

    @inlinable
    package mutating func next() -> Element? {
      guard remaining > 0, let node = stack.popLast() else { return nil }
      remaining -= 1
      var next = node.right
      while let current = next {
        stack.append(current)
        next = current.left
      }
      return (node.key, node.value)
    }
  }

  /// A range of positions, in key order, sharing the map's storage.
  package struct Elements: Sequence {
    let root: Node?
    let start: Int
    let count: Int

    package func makeIterator() -> Iterator { Iterator(root: root, start: start, count: count) }

    package var underestimatedCount: Int { count }
  }

  /// At most `count` entries from position `rank`, in key order, without copying.
  package func elements(from rank: Int, count: Int) -> Elements {
    let start = Swift.min(Swift.max(rank, 0), self.count)
    return Elements(
      root: root, start: start, count: Swift.min(Swift.max(count, 0), self.count - start))
  }

  @inlinable
  package func makeIterator() -> Iterator { Iterator(root: root, start: 0, count: count) }

  /// Whether the value of some entry satisfies `predicate`: a walk of the nodes that stops at
  /// the first such value and allocates nothing (an iterator keeps a stack of nodes).
  @inlinable
  package func containsValue(where predicate: (Node.Value) throws -> Bool) rethrows -> Bool {
    try root?.firstInOrder { try predicate($0.value) ? true : nil } ?? false
  }

  @inlinable
  package var underestimatedCount: Int { count }
}
