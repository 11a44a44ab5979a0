/// The keys of the children of a view's node that a change modified, each once: the first key
/// is kept apart, so that one key, the usual case (a set or a push of one child), makes no set.
struct ChildKeys: Sequence, ExpressibleByArrayLiteral {
  /// The first key inserted; nil only while there is none.
  private var first: WebcomKey?
  /// The other keys.
  private var others: Set<WebcomKey> = []

  init() {}

  init(arrayLiteral keys: WebcomKey...) {
    formUnion(keys)
  }

  var isEmpty: Bool { first == nil }

  var count: Int { first == nil ? 0 : 1 + others.count }

  var underestimatedCount: Int { count }

  func contains(_ key: WebcomKey) -> Bool {
    first == key || others.contains(key)
  }

  mutating func insert(_ key: WebcomKey) {
    guard let first else {
      self.first = key
      return
    }
    if first != key { others.insert(key) }
  }

  mutating func formUnion(_ keys: some Sequence<WebcomKey>) {
    for key in keys { insert(key) }
  }

  struct Iterator: IteratorProtocol {
    fileprivate var first: WebcomKey?
    fileprivate var others: Set<WebcomKey>.Iterator

    mutating func next() -> WebcomKey? {
      if let key = first {
        first = nil
        return key
      }
      return others.next()
    }
  }

  /// The keys, the first inserted first, the others in no particular order.
  func makeIterator() -> Iterator {
    Iterator(first: first, others: others.makeIterator())
  }
}
