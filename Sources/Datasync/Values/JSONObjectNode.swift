import Synchronization

/// A node of the persistent weight-balanced tree behind ``JSONObject``.
///
/// Nodes are immutable and shared between versions of an object: an update copies the
/// O(log n) nodes on the path to the changed key and shares everything else. The tree keeps
/// the weight-balance invariant of Adams' trees with the parameters (3, 2) (weight = size + 1):
/// `3 × weight(left) ≥ weight(right)` and the converse, so its height is O(log n).
///
/// Memory: the node takes 88 bytes with its object header, which malloc serves from its 96-byte
/// chunks (a 96-byte node needs a 112-byte chunk). To fit, the key is stored in its parts, the
/// value comes last so that the small fields fill the padding after its one-byte case tag, and
/// the key's shape is kept on 16 bits (see ``compactShape(_:)``). One word caches the digest of
/// the subtree's entries (see ``JSONValue/digest``), computed on first use.
final class JSONObjectNode: Sendable {
  private let keyString: String
  private let keyOrderPrefix: UInt64
  let left: JSONObjectNode?
  let right: JSONObjectNode?
  /// The digest of the subtree's entries once computed, 0 before (a digest that is 0 is never
  /// cached). Threads racing to compute it store the same number, so relaxed ordering suffices.
  private let cachedDigest = Atomic<UInt64>(0)
  let value: JSONValue
  /// The key's shape on 16 bits: the integer flag, then the UTF-8 length saturated at 0x7FFF.
  private let keyCompactShape: UInt16
  /// The number of nodes of the subtree rooted here.
  private let storedCount: UInt32

  init(_ key: WebcomKey, _ value: JSONValue, _ left: JSONObjectNode?, _ right: JSONObjectNode?) {
    keyString = key.value
    keyOrderPrefix = key.orderPrefix
    self.left = left
    self.right = right
    self.value = value
    keyCompactShape = JSONObjectNode.compactShape(key.shape)
    storedCount = (left?.storedCount ?? 0) + (right?.storedCount ?? 0) + 1
  }

  /// The key of the node, rebuilt from its parts.
  var key: WebcomKey {
    WebcomKey(
      keyString, orderPrefix: keyOrderPrefix,
      shape: JSONObjectNode.shape(expanding: keyCompactShape, of: keyString))
  }

  /// The order of `key` relative to the node's key (negative when `key` comes first), without
  /// rebuilding the node's key.
  @inline(__always)
  func order(of key: WebcomKey) -> Int {
    WebcomKey.order(
      key.value, shape: key.shape, orderPrefix: key.orderPrefix,
      keyString, shape: JSONObjectNode.shape(expanding: keyCompactShape, of: keyString),
      orderPrefix: keyOrderPrefix)
  }

  /// The value of `key` in the tree under `root`, found without retaining each node on the way
  /// down: the nodes are immutable and `root`, which the caller holds, holds them.
  static func value(for key: WebcomKey, under root: Unmanaged<JSONObjectNode>) -> JSONValue? {
    var found: JSONValue?
    var node: Unmanaged<JSONObjectNode>? = root
    while let current = node {
      node = current._withUnsafeGuaranteedRef { current in
        let order = current.order(of: key)
        if order == 0 {
          found = current.value
          return nil
        }
        return (order < 0 ? current.left : current.right).map(Unmanaged.passUnretained)
      }
    }
    return found
  }

  /// The greatest key before `key` in the tree under `root` (`before`), or the smallest after
  /// it; found without retaining each node on the way down, like ``value(for:under:)``, and
  /// rebuilding only the key returned.
  static func neighbour(of key: WebcomKey, under root: Unmanaged<JSONObjectNode>, before: Bool)
    -> WebcomKey?
  {
    var candidate: Unmanaged<JSONObjectNode>?
    var node: Unmanaged<JSONObjectNode>? = root
    while let current = node {
      node = current._withUnsafeGuaranteedRef { node in
        let order = node.order(of: key)
        let passes = before ? order > 0 : order < 0
        if passes { candidate = current }
        return (passes == before ? node.right : node.left).map(Unmanaged.passUnretained)
      }
    }
    return candidate?._withUnsafeGuaranteedRef { $0.key }
  }

  /// Calls `body` with each node of the subtree in key order, without allocating.
  func forEachInOrder(_ body: (JSONObjectNode) throws -> Void) rethrows {
    if let left { try left.forEachInOrder(body) }
    try body(self)
    if let right { try right.forEachInOrder(body) }
  }

  /// The number of elements of the array the subtree stores (``JSONValue/arrayCount``), `nil`
  /// when it stores none; the descent to the last key retains no node.
  var arrayCount: Int? {
    var last = Unmanaged.passUnretained(self)
    while let right = last._withUnsafeGuaranteedRef({ $0.right.map(Unmanaged.passUnretained) }) {
      last = right
    }
    guard let lastIndex = last._withUnsafeGuaranteedRef({ $0.canonicalIndex }),
      2 * count > lastIndex + 1, hasOnlyCanonicalIndices
    else { return nil }
    return lastIndex + 1
  }

  /// Whether every key of the subtree names an array index.
  private var hasOnlyCanonicalIndices: Bool {
    canonicalIndex != nil && left?.hasOnlyCanonicalIndices != false
      && right?.hasOnlyCanonicalIndices != false
  }

  /// The array index the node's key names (``WebcomKey/canonicalIndex``), without rebuilding
  /// the key.
  var canonicalIndex: Int? {
    guard keyCompactShape & JSONObjectNode.compactIntegerFlag != 0 else { return nil }
    return WebcomKey.canonicalIndex(
      integer: Int64(bitPattern: keyOrderPrefix ^ (1 << 63)),
      utf8Count: Int(keyCompactShape & JSONObjectNode.compactLengthLimit))
  }

  private static let compactIntegerFlag: UInt16 = 1 << 15
  private static let compactLengthLimit: UInt16 = compactIntegerFlag - 1

  /// A key's shape on 16 bits. Keys longer than 0x7FFE bytes (the database refuses keys longer
  /// than 768) keep the saturated length 0x7FFF, and their length is read from the key again.
  private static func compactShape(_ shape: UInt32) -> UInt16 {
    let length = UInt16(min(shape & ~WebcomKey.integerFlag, UInt32(compactLengthLimit)))
    return shape & WebcomKey.integerFlag != 0 ? length | compactIntegerFlag : length
  }

  /// The full shape of `key` from its compact shape.
  @inline(__always)
  private static func shape(expanding compact: UInt16, of key: String) -> UInt32 {
    let flag: UInt32 = compact & compactIntegerFlag != 0 ? WebcomKey.integerFlag : 0
    let length = compact & compactLengthLimit
    guard length == compactLengthLimit else { return flag | UInt32(length) }
    return flag | UInt32(min(key.utf8.count, Int(WebcomKey.integerFlag - 1)))
  }

  /// The number of nodes of the subtree rooted here.
  var count: Int { Int(storedCount) }

  /// The sum (wrapping) of the digests of the subtree's entries, each mixing its key and its
  /// value. A sum does not depend on the shape of the tree, so maps with the same entries have
  /// the same digest whatever their history. Computed once per node: after an update, only the O(log n) new
  /// nodes compute theirs.
  var entriesDigest: UInt64 {
    let cached = cachedDigest.load(ordering: .relaxed)
    if cached != 0 { return cached }
    var sum = ValueDigest.entry(key: key, valueDigest: value.digest)
    if let left { sum &+= left.entriesDigest }
    if let right { sum &+= right.entriesDigest }
    if sum != 0 { cachedDigest.store(sum, ordering: .relaxed) }
    return sum
  }
}

extension JSONObjectNode {
  private static let delta = 3
  private static let ratio = 2

  @inline(__always)
  static func size(_ node: JSONObjectNode?) -> Int { node?.count ?? 0 }

  /// Builds a node whose subtrees are at most one update away from balance, rebalancing it.
  static func balanced(
    _ key: WebcomKey, _ value: JSONValue, _ left: JSONObjectNode?, _ right: JSONObjectNode?
  ) -> JSONObjectNode {
    let leftWeight = size(left) + 1
    let rightWeight = size(right) + 1
    if rightWeight > delta * leftWeight, let right {
      if size(right.left) + 1 < ratio * (size(right.right) + 1) {
        return JSONObjectNode(
          right.key, right.value, JSONObjectNode(key, value, left, right.left), right.right)
      }
      let middle = right.left!
      return JSONObjectNode(
        middle.key, middle.value, JSONObjectNode(key, value, left, middle.left),
        JSONObjectNode(right.key, right.value, middle.right, right.right))
    }
    if leftWeight > delta * rightWeight, let left {
      if size(left.right) + 1 < ratio * (size(left.left) + 1) {
        return JSONObjectNode(
          left.key, left.value, left.left, JSONObjectNode(key, value, left.right, right))
      }
      let middle = left.right!
      return JSONObjectNode(
        middle.key, middle.value, JSONObjectNode(left.key, left.value, left.left, middle.left),
        JSONObjectNode(key, value, middle.right, right))
    }
    return JSONObjectNode(key, value, left, right)
  }

  /// The tree with `key` bound to `value` (inserted or replaced); the same tree when `key` is
  /// already bound to an identical value. `replaced` is set to the value `key` was bound to, when
  /// it was.
  static func inserting(
    _ key: WebcomKey, _ value: JSONValue, into node: JSONObjectNode?,
    replaced: inout JSONValue?
  ) -> JSONObjectNode {
    guard let node else { return JSONObjectNode(key, value, nil, nil) }
    let order = node.order(of: key)
    if order < 0 {
      let left = inserting(key, value, into: node.left, replaced: &replaced)
      return left === node.left ? node : balanced(node.key, node.value, left, node.right)
    }
    if order > 0 {
      let right = inserting(key, value, into: node.right, replaced: &replaced)
      return right === node.right ? node : balanced(node.key, node.value, node.left, right)
    }
    replaced = node.value
    return node.value.isIdentical(to: value)
      ? node : JSONObjectNode(key, value, node.left, node.right)
  }

  /// The tree without `key`; `removed` is set when the key was found (otherwise the same tree
  /// is returned).
  static func removing(_ key: WebcomKey, from node: JSONObjectNode?, removed: inout Bool)
    -> JSONObjectNode?
  {
    guard let node else { return nil }
    let order = node.order(of: key)
    if order < 0 {
      let left = removing(key, from: node.left, removed: &removed)
      return removed ? balanced(node.key, node.value, left, node.right) : node
    }
    if order > 0 {
      let right = removing(key, from: node.right, removed: &removed)
      return removed ? balanced(node.key, node.value, node.left, right) : node
    }
    removed = true
    return glued(node.left, node.right)
  }

  /// The concatenation of two trees balanced with each other, all keys of `left` before those
  /// of `right`.
  private static func glued(_ left: JSONObjectNode?, _ right: JSONObjectNode?) -> JSONObjectNode? {
    guard let left else { return right }
    guard let right else { return left }
    if left.count > right.count {
      let (key, value, rest) = removingLast(left)
      return balanced(key, value, rest, right)
    }
    let (key, value, rest) = removingFirst(right)
    return balanced(key, value, left, rest)
  }

  private static func removingFirst(_ node: JSONObjectNode)
    -> (WebcomKey, JSONValue, JSONObjectNode?)
  {
    guard let left = node.left else { return (node.key, node.value, node.right) }
    let (key, value, rest) = removingFirst(left)
    return (key, value, balanced(node.key, node.value, rest, node.right))
  }

  private static func removingLast(_ node: JSONObjectNode)
    -> (WebcomKey, JSONValue, JSONObjectNode?)
  {
    guard let right = node.right else { return (node.key, node.value, node.left) }
    let (key, value, rest) = removingLast(right)
    return (key, value, balanced(node.key, node.value, node.left, rest))
  }

  /// A perfectly balanced tree of `pairs[range]`, which are sorted by key without duplicates.
  static func built(
    from pairs: [(key: WebcomKey, value: JSONValue)], _ range: Range<Int>
  ) -> JSONObjectNode? {
    guard !range.isEmpty else { return nil }
    let middle = range.lowerBound + range.count / 2
    return JSONObjectNode(
      pairs[middle].key, pairs[middle].value,
      built(from: pairs, range.lowerBound..<middle),
      built(from: pairs, middle + 1..<range.upperBound))
  }

  /// Whether the subtree is ordered, sized and weight-balanced (for tests).
  var isValidTree: Bool {
    let leftWeight = JSONObjectNode.size(left) + 1
    let rightWeight = JSONObjectNode.size(right) + 1
    guard count == leftWeight + rightWeight - 1 else { return false }
    guard JSONObjectNode.delta * leftWeight >= rightWeight,
      JSONObjectNode.delta * rightWeight >= leftWeight
    else { return false }
    if let left, !(left.key < key && left.maximumKey < key && left.isValidTree) { return false }
    if let right, !(key < right.key && key < right.minimumKey && right.isValidTree) {
      return false
    }
    return !value.isNull
  }

  private var minimumKey: WebcomKey { left?.minimumKey ?? key }
  private var maximumKey: WebcomKey { right?.maximumKey ?? key }
}
