import Synchronization

/// A node of the persistent ordered map behind ``JSONObject``
/// (``PersistentOrderedMap``, which holds the algorithms).
///
/// Memory: the node takes 88 bytes with its object header, which malloc serves from its 96-byte
/// chunks (a 96-byte node needs a 112-byte chunk). To fit, the key is stored in its parts, the
/// value comes last so that the small fields fill the padding after its one-byte case tag, and
/// the key's shape is kept on 16 bits (see ``compactShape(_:)``). One word caches the digest of
/// the subtree's entries (see ``JSONValue/digest``), computed on first use.
package final class JSONObjectNode: OrderedMapNode, Sendable {
  private let keyRest: String
  private let keyOrderPrefix: UInt64
  package let left: JSONObjectNode?
  package let right: JSONObjectNode?
  /// The digest of the subtree's entries once computed, 0 before (a digest that is 0 is never
  /// cached). Threads racing to compute it store the same number, so relaxed ordering suffices.
  private let cachedDigest = Atomic<UInt64>(0)
  package let value: JSONValue
  /// The key's shape on 16 bits: the integer flag, the ASCII-rest flag, then the UTF-8 length
  /// saturated at 0x3FFF.
  private let keyCompactShape: UInt16
  /// The number of nodes of the subtree rooted here.
  private let storedCount: UInt32

  // The initialisers read the subtrees' counts before storing them: the subtrees they are given
  // move into the node, without a retain to keep reading them.
  package init(
    _ key: WebcomKey, _ value: JSONValue, _ left: JSONObjectNode?, _ right: JSONObjectNode?
  ) {
    storedCount = (left?.storedCount ?? 0) + (right?.storedCount ?? 0) + 1
    keyRest = key.rest
    keyOrderPrefix = key.orderPrefix
    self.left = left
    self.right = right
    self.value = value
    keyCompactShape = JSONObjectNode.compactShape(key.shape)
  }

  package init(
    entryOf entry: borrowing JSONObjectNode, _ left: JSONObjectNode?, _ right: JSONObjectNode?
  ) {
    storedCount = (left?.storedCount ?? 0) + (right?.storedCount ?? 0) + 1
    keyRest = entry.keyRest
    keyOrderPrefix = entry.keyOrderPrefix
    self.left = left
    self.right = right
    value = entry.value
    keyCompactShape = entry.keyCompactShape
  }

  /// The key of the node, rebuilt from its parts.
  package var key: WebcomKey {
    WebcomKey(
      rest: keyRest, orderPrefix: keyOrderPrefix,
      shape: JSONObjectNode.shape(expanding: keyCompactShape, of: keyRest))
  }

  /// The order of `key` relative to the node's key (negative when `key` comes first), without
  /// rebuilding the node's key.
  @inline(__always)
  package func order(of key: WebcomKey) -> Int {
    WebcomKey.order(
      key.rest, shape: key.shape, orderPrefix: key.orderPrefix,
      keyRest, shape: JSONObjectNode.shape(expanding: keyCompactShape, of: keyRest),
      orderPrefix: keyOrderPrefix)
  }

  /// A set to an identical value (same storage) leaves the node as it is.
  package static func keeps(_ old: JSONValue, whenSetTo new: JSONValue) -> Bool {
    old.isIdentical(to: new)
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
  private static let compactASCIIRestFlag: UInt16 = 1 << 14
  private static let compactLengthLimit: UInt16 = compactASCIIRestFlag - 1

  /// A key's shape on 16 bits. Keys longer than 0x3FFE bytes (the database refuses keys longer
  /// than 768) keep the saturated length 0x3FFF, and their length is read from the key again
  /// (such a key is not split: its rest is the whole key).
  private static func compactShape(_ shape: UInt32) -> UInt16 {
    var compact = UInt16(min(shape & WebcomKey.lengthMask, UInt32(compactLengthLimit)))
    if shape & WebcomKey.integerFlag != 0 { compact |= compactIntegerFlag }
    if shape & WebcomKey.asciiRestFlag != 0 { compact |= compactASCIIRestFlag }
    return compact
  }

  /// The full shape of `key` from its compact shape.
  @inline(__always)
  private static func shape(expanding compact: UInt16, of key: String) -> UInt32 {
    var flags: UInt32 = compact & compactIntegerFlag != 0 ? WebcomKey.integerFlag : 0
    if compact & compactASCIIRestFlag != 0 { flags |= WebcomKey.asciiRestFlag }
    let length = compact & compactLengthLimit
    guard length == compactLengthLimit else { return flags | UInt32(length) }
    return flags | UInt32(min(key.utf8.count, Int(WebcomKey.lengthMask)))
  }

  /// The number of nodes of the subtree rooted here.
  package var count: Int { Int(storedCount) }

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
