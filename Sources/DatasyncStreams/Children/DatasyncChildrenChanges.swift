/// What changed in a node's children between two emissions of `children(as:)`, as positions a
/// list UI can animate.
///
/// Positions follow batch-update conventions: `removed` are positions in the previous collection,
/// `inserted` and `updated` positions in the new one; each array is sorted. Children are ordered
/// by key, and a key never changes, so a child never moves: `moved` is empty unless a future
/// ordering (other than by key) makes children move.
public struct DatasyncChildrenChanges: Sendable, Equatable, CustomStringConvertible {
  /// A child that moved from one position to another.
  public struct Move: Sendable, Equatable {
    /// Its position in the previous collection.
    public let from: Int
    /// Its position in the new collection.
    public let to: Int
  }

  /// Positions, in the new collection, of the children that appeared.
  public let inserted: [Int]
  /// Positions, in the previous collection, of the children that disappeared.
  public let removed: [Int]
  /// Positions, in the new collection, of the children whose value changed.
  public let updated: [Int]
  /// Children that changed position.
  public let moved: [Move]
  /// Whether this is the first emission: the initial load, complete.
  public let isInitialLoad: Bool

  @usableFromInline
  init(
    inserted: [Int], removed: [Int], updated: [Int], moved: [Move] = [], isInitialLoad: Bool
  ) {
    self.inserted = inserted
    self.removed = removed
    self.updated = updated
    self.moved = moved
    self.isInitialLoad = isInitialLoad
  }

  /// Whether nothing changed.
  public var isEmpty: Bool {
    inserted.isEmpty && removed.isEmpty && updated.isEmpty && moved.isEmpty
  }

  public var description: String {
    "inserted: \(inserted), removed: \(removed), updated: \(updated)"
      + (isInitialLoad ? " (initial load)" : "")
  }
}
