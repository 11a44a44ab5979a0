/// The coding path of a value being decoded by ``ValueDecoder``: a persistent list of coding keys
/// that shares its prefix with the paths it was made from.
///
/// The last key is held inline and the keys before it in shared nodes, so that going one level
/// deeper (a field of a struct, an element of an array) allocates nothing; a node is allocated
/// only when a path that already has a last key grows. The array of keys is built only when
/// asked for (errors, `codingPath`).
struct ValueDecodingPath {
  /// A key and the keys before it.
  private final class Node {
    let parent: Node?
    let key: any CodingKey
    let count: Int

    init(parent: Node?, key: any CodingKey) {
      self.parent = parent
      self.key = key
      count = (parent?.count ?? 0) + 1
    }
  }

  /// The keys before ``last``.
  private let prefix: Node?
  /// The last key, `nil` for an empty path.
  private let last: (any CodingKey)?

  private init(prefix: Node?, last: (any CodingKey)?) {
    self.prefix = prefix
    self.last = last
  }

  /// The path of the top-level value.
  static var root: ValueDecodingPath { ValueDecodingPath(prefix: nil, last: nil) }

  /// This path followed by `key`.
  func appending(_ key: some CodingKey) -> ValueDecodingPath {
    guard let last else { return ValueDecodingPath(prefix: prefix, last: key) }
    return ValueDecodingPath(prefix: Node(parent: prefix, key: last), last: key)
  }

  /// The same path with every key in a shared node, so that each ``appending(_:)`` to it
  /// allocates nothing (for containers that append one key per element).
  func sharingPrefix() -> ValueDecodingPath {
    guard let last else { return self }
    return ValueDecodingPath(prefix: Node(parent: prefix, key: last), last: nil)
  }

  /// The keys, from the top level down.
  var keys: [any CodingKey] {
    var keys: [any CodingKey] = []
    keys.reserveCapacity((prefix?.count ?? 0) + 1)
    var node = prefix
    while let current = node {
      keys.append(current.key)
      node = current.parent
    }
    keys.reverse()
    if let last { keys.append(last) }
    return keys
  }

  /// The keys followed by `key`.
  func keys(appending key: some CodingKey) -> [any CodingKey] {
    appending(key).keys
  }
}
