/// The children of a JSON object in the value model: a persistent map from keys to values,
/// ordered by key order (see ``WebcomKey``).
///
/// Copies cost O(1) and share storage; every update returns a new map in O(log n) and leaves
/// the original untouched. Positions (ranks) are O(log n) too, which the engine uses for
/// children windows and previous-child keys. A map never holds a null value: setting null
/// removes the key.
package struct JSONObject: Sendable {
  /// An element: a key and its (never null) value.
  package typealias Element = (key: WebcomKey, value: JSONValue)

  /// A range of elements, in key order, sharing the map's storage.
  typealias Elements = PersistentOrderedMap<JSONObjectNode>.Elements

  /// The keys and values.
  private let map: PersistentOrderedMap<JSONObjectNode>

  /// The empty map.
  init() {
    map = PersistentOrderedMap()
  }

  private init(_ map: PersistentOrderedMap<JSONObjectNode>) {
    self.map = map
  }

  /// Builds a map in O(n) from pairs sorted by key order without duplicate keys; null values
  /// are skipped.
  init(_ sortedUniquePairs: some Collection<Element>) {
    var pairs: [Element] = []
    pairs.reserveCapacity(sortedUniquePairs.count)
    for pair in sortedUniquePairs where !pair.value.isNull {
      assert(pairs.last.map { $0.key < pair.key } ?? true, "pairs are not sorted by key")
      pairs.append(pair)
    }
    map = PersistentOrderedMap(increasing: pairs)
  }

  /// Builds a map in O(n) from pairs sorted by key order, without duplicate keys nor null
  /// values.
  init(sortedUniqueNonNullPairs pairs: [Element]) {
    assert(zip(pairs, pairs.dropFirst()).allSatisfy { $0.key < $1.key }, "pairs are not sorted")
    assert(pairs.allSatisfy { !$0.value.isNull }, "null values")
    map = PersistentOrderedMap(increasing: pairs)
  }

  /// The root of the tree, `nil` when empty.
  var root: JSONObjectNode? { map.root }

  /// The number of keys.
  var count: Int { map.count }

  /// Whether the map has no key.
  var isEmpty: Bool { map.isEmpty }

  /// The value of a key, `nil` when absent.
  subscript(key: WebcomKey) -> JSONValue? { map.value(for: key) }

  /// Whether the map binds `key` (to a value that is not null, as every value it holds), found
  /// without copying the value.
  func containsKey(_ key: WebcomKey) -> Bool { map.search(for: key).isBound }

  /// The map with `key` bound to `value`, or without `key` when `value` is null (or an empty
  /// object).
  func setting(_ value: JSONValue, for key: WebcomKey) -> JSONObject {
    settingReturningReplaced(value, for: key).result
  }

  /// ``setting(_:for:)``, with the value `key` was bound to (nil when absent), found while
  /// inserting: one descent of the tree instead of a lookup and an insertion.
  func settingReturningReplaced(_ value: JSONValue, for key: WebcomKey) -> (
    result: JSONObject, replaced: JSONValue?
  ) {
    if value.isNull { return (removing(key), self[key]) }
    let (result, replaced) = map.settingReturningReplaced(value, for: key)
    return (JSONObject(result), replaced)
  }

  /// Whether both maps share their storage (then they are equal).
  func isIdentical(to other: JSONObject) -> Bool { map.isIdentical(to: other.map) }

  /// The map without `key` (the same map when the key is absent).
  func removing(_ key: WebcomKey) -> JSONObject { JSONObject(map.removing(key)) }

  /// The number of keys that come before `key` in key order (whether `key` is present or not).
  func rank(of key: WebcomKey) -> Int { map.rank(of: key) }

  /// The element at a position in key order; `rank` must be in `0..<count`.
  func element(atRank rank: Int) -> Element { map.element(atRank: rank) }

  /// The greatest key before `key` in key order, `nil` when there is none.
  func key(before key: WebcomKey) -> WebcomKey? { map.key(before: key) }

  /// The smallest key after `key` in key order, `nil` when there is none.
  func key(after key: WebcomKey) -> WebcomKey? { map.key(after: key) }

  /// The first element in key order.
  var first: Element? { map.first }

  /// The last element in key order.
  var last: Element? { map.last }

  /// The keys, in key order.
  var keys: [WebcomKey] { map.map(\.key) }

  /// Whether some element's value satisfies `predicate`, found without allocating
  /// (``PersistentOrderedMap/containsValue(where:)``).
  func containsValue(where predicate: (JSONValue) throws -> Bool) rethrows -> Bool {
    try map.containsValue(where: predicate)
  }

  /// At most `count` elements from position `rank`, in key order, without copying.
  func elements(from rank: Int, count: Int) -> Elements {
    map.elements(from: rank, count: count)
  }

  /// The elements of positions `ranks`, in key order.
  func elements(in ranks: Range<Int>) -> Elements {
    map.elements(from: ranks.lowerBound, count: ranks.count)
  }

  /// Whether the tree invariants hold (for tests): order, sizes, balance, no null value.
  var isValid: Bool { map.isValid && map.allSatisfy { !$0.value.isNull } }
}

extension JSONObject: Sequence {
  package func makeIterator() -> PersistentOrderedMap<JSONObjectNode>.Iterator {
    map.makeIterator()
  }

  package var underestimatedCount: Int { count }
}

extension JSONObject: Equatable {
  /// Structural equality, O(1) when both share storage.
  package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    if lhs.isIdentical(to: rhs) { return true }
    guard lhs.count == rhs.count else { return false }
    var rhsIterator = rhs.makeIterator()
    for (key, value) in lhs {
      guard let (otherKey, otherValue) = rhsIterator.next(), key == otherKey, value == otherValue
      else { return false }
    }
    return true
  }
}

extension JSONObject {
  /// Sorts pairs by key order (stably), keeping only the last pair of each key.
  static func sortKeepingLast(_ sorted: inout [JSONObject.Element]) {
    guard sorted.count > 1 else { return }
    var hasDuplicates = false
    if sorted.count <= 32 {
      // Stable insertion sort, in place: few keys, no extra allocation; swaps move the pairs
      // without retaining them. A key equal to an earlier one meets it when it is inserted.
      sorted.withUnsafeMutableBufferPointer { pairs in
        for position in 1..<pairs.count {
          var target = position
          while target > 0 {
            let order = WebcomKey.order(pairs[target - 1].key, pairs[target].key)
            if order == 0 { hasDuplicates = true }
            guard order > 0 else { break }
            pairs.swapAt(target - 1, target)
            target -= 1
          }
        }
      }
    } else {
      let pairs = sorted
      sorted = pairs.indices.sorted {
        let keyOrder = WebcomKey.order(pairs[$0].key, pairs[$1].key)
        return keyOrder != 0 ? keyOrder < 0 : $0 < $1
      }.map { pairs[$0] }
      hasDuplicates = zip(sorted, sorted.dropFirst()).contains { $0.key == $1.key }
    }
    guard hasDuplicates else { return }
    // The pairs kept move to the front; a later pair of the same key replaces the kept one.
    var kept = 0
    for position in sorted.indices {
      if kept > 0, sorted[kept - 1].key == sorted[position].key {
        sorted.swapAt(kept - 1, position)
      } else {
        if kept != position { sorted.swapAt(kept, position) }
        kept += 1
      }
    }
    sorted.removeLast(sorted.count - kept)
  }
}
