/// A query over the children of a node, as the REST protocol of hosted realtime databases
/// expresses it: an order (`orderBy`), an optional range (`startAt`, `startAfter`, `endAt`,
/// `endBefore`, `equalTo`) and an optional limit (`limitToFirst`, `limitToLast`).
///
/// Children are ordered by their sort value, ties broken by key order:
/// - ``Order/key``: the key itself, in key order (see ``WebcomKey``); bounds are keys.
/// - ``Order/value`` and ``Order/child(_:)``: the child's value, or the value at a path inside
///   it (null when absent), in the order of hosted databases: null first, then `false`, `true`,
///   numbers (ascending, integers and floating numbers compared exactly), strings (by their
///   UTF-8 bytes), and objects last (all objects sort equal, so among them by key).
///
/// The range keeps the children whose sort value lies between the bounds (the same order: a
/// numeric `startAt` also keeps strings, which sort after numbers); the limit then keeps the
/// first or last children in the query's order. The result is an object of the kept children
/// (a value without children gives null). Ordering by key costs O(log n + k) for k kept
/// children; other orders sort the node's children, O(n log n), since no index is kept.
package struct ValueQuery: Sendable, Equatable {
  /// What children are sorted by.
  package enum Order: Sendable, Equatable {
    /// The children's keys.
    case key
    /// The children's values.
    case value
    /// The value at a path relative to each child (its keys, at least one).
    case child([WebcomKey])
  }

  /// One end of a range.
  package struct Bound: Sendable, Equatable {
    /// The sort value of the bound (a string for ``Order/key``).
    package var value: JSONValue
    /// Whether a child whose sort value equals the bound is kept.
    package var isInclusive: Bool

    package init(_ value: JSONValue, isInclusive: Bool) {
      self.value = value
      self.isInclusive = isInclusive
    }
  }

  /// How many children are kept, from which end.
  package enum Limit: Sendable, Equatable {
    case first(Int)
    case last(Int)
  }

  package let order: Order
  package let start: Bound?
  package let end: Bound?
  package let limit: Limit?
  /// The bounds as keys, for a key order.
  private let startKey: WebcomKey?
  private let endKey: WebcomKey?

  /// Creates a query.
  ///
  /// - Throws: ``WebcomError`` with code `invalidArgument` when a bound of a key order is not
  ///   a string, a child order has an empty path, or a limit is negative.
  package init(order: Order, start: Bound? = nil, end: Bound? = nil, limit: Limit? = nil)
    throws(WebcomError)
  {
    if case .child(let keys) = order, keys.isEmpty {
      throw WebcomError(.invalidArgument, "a query ordered by a child needs a child path")
    }
    switch limit {
    case .first(let count) where count < 0, .last(let count) where count < 0:
      throw WebcomError(.invalidArgument, "a query limit must not be negative, not \(count)")
    default:
      break
    }
    self.order = order
    self.start = start
    self.end = end
    self.limit = limit
    if case .key = order {
      startKey = try start.map { bound throws(WebcomError) in try Self.key(of: bound.value) }
      endKey = try end.map { bound throws(WebcomError) in try Self.key(of: bound.value) }
    } else {
      startKey = nil
      endKey = nil
    }
  }

  /// A bound of a key order as a key.
  private static func key(of bound: JSONValue) throws(WebcomError) -> WebcomKey {
    guard case .string(let string) = bound else {
      throw WebcomError(
        .invalidArgument,
        "a query ordered by key takes strings as bounds, not \(bound.kindDescription) "
          + "(\(bound.jsonString))")
    }
    return WebcomKey(string)
  }

  /// The children of `value` the query keeps, as an object; null when none is kept or `value`
  /// has no children.
  package func apply(to value: JSONValue) -> JSONValue {
    guard case .object(let object) = value else { return .null }
    let kept: [JSONObject.Element]
    switch order {
    case .key: kept = Array(object.elements(in: keyWindow(in: object)))
    case .value: kept = sortedWindow(of: object) { $0 }.sorted { $0.key < $1.key }
    case .child(let keys):
      kept = sortedWindow(of: object) { $0.value(at: keys) }.sorted { $0.key < $1.key }
    }
    return kept.isEmpty ? .null : .object(JSONObject(sortedUniqueNonNullPairs: kept))
  }

  /// The ranks of the children kept when ordering by key.
  private func keyWindow(in object: JSONObject) -> Range<Int> {
    var lower = 0
    var upper = object.count
    if let start, let key = startKey {
      lower = object.rank(of: key) + (!start.isInclusive && object[key] != nil ? 1 : 0)
    }
    if let end, let key = endKey {
      upper = object.rank(of: key) + (end.isInclusive && object[key] != nil ? 1 : 0)
    }
    guard lower < upper else { return 0..<0 }
    switch limit {
    case nil: return lower..<upper
    case .first(let count): return lower..<min(upper, lower + max(count, 0))
    case .last(let count): return max(lower, upper - max(count, 0))..<upper
    }
  }

  /// The children kept by an order of the sort values `sortValue` gives, in that order.
  private func sortedWindow(
    of object: JSONObject, sortValue: (JSONValue) -> JSONValue
  ) -> [JSONObject.Element] {
    var entries: [(sortValue: JSONValue, element: JSONObject.Element)] = []
    entries.reserveCapacity(object.count)
    for element in object {
      let sortValue = sortValue(element.value)
      if let start {
        let order = Self.compare(sortValue, start.value)
        if order < 0 || (order == 0 && !start.isInclusive) { continue }
      }
      if let end {
        let order = Self.compare(sortValue, end.value)
        if order > 0 || (order == 0 && !end.isInclusive) { continue }
      }
      entries.append((sortValue, element))
    }
    entries.sort {
      let order = Self.compare($0.sortValue, $1.sortValue)
      return order != 0 ? order < 0 : $0.element.key < $1.element.key
    }
    let window: ArraySlice<(sortValue: JSONValue, element: JSONObject.Element)>
    switch limit {
    case nil: window = entries[...]
    case .first(let count): window = entries.prefix(max(count, 0))
    case .last(let count): window = entries.suffix(max(count, 0))
    }
    return window.map(\.element)
  }

  /// Three-way comparison of sort values in the order of hosted databases: null, false, true,
  /// numbers, strings, objects (all objects equal).
  package static func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> Int {
    let lhsRank = rank(lhs)
    let rhsRank = rank(rhs)
    if lhsRank != rhsRank { return lhsRank < rhsRank ? -1 : 1 }
    switch (lhs, rhs) {
    case (.string(let left), .string(let right)):
      return WebcomKey.compareUTF8(left, right)
    case (.int(let left), .int(let right)):
      return left == right ? 0 : (left < right ? -1 : 1)
    case (.double(let left), .double(let right)):
      return left == right ? 0 : (left < right ? -1 : 1)
    case (.int(let left), .double(let right)):
      return -compare(right, left)
    case (.double(let left), .int(let right)):
      return compare(left, right)
    default:
      return 0
    }
  }

  /// Exact comparison of a floating number and an integer.
  private static func compare(_ double: Double, _ integer: Int64) -> Int {
    // 2⁶³ as a Double is exact; every finite double below it in magnitude converts exactly
    // once rounded towards zero, which decides the order with the fraction.
    if double >= 9_223_372_036_854_775_808.0 { return 1 }
    if double < -9_223_372_036_854_775_808.0 { return -1 }
    let truncated = Int64(double.rounded(.towardZero))
    if truncated != integer { return truncated < integer ? -1 : 1 }
    let fraction = double - double.rounded(.towardZero)
    return fraction == 0 ? 0 : (fraction < 0 ? -1 : 1)
  }

  /// The rank of a value's kind in the order of hosted databases.
  private static func rank(_ value: JSONValue) -> Int {
    switch value {
    case .null: 0
    case .bool(false): 1
    case .bool(true): 2
    case .int, .double: 3
    case .string: 4
    case .object(let object): object.isEmpty ? 0 : 5
    }
  }
}
