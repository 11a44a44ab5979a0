/// A key path inside a value being encoded by ``ValueEncoder``: a linked list from the innermost
/// key up to the top, so that nested encoders share their ancestors' nodes.
final class ValueEncoderPath {
  let parent: ValueEncoderPath?
  /// The key as stored (after the key strategy), or the index of an array element.
  let name: String
  /// The coding key the value was encoded for.
  let key: any CodingKey
  /// The number of keys from the top (1 for a top-level member).
  let depth: Int

  init(parent: ValueEncoderPath?, name: String, key: any CodingKey) {
    self.parent = parent
    self.name = name
    self.key = key
    depth = (parent?.depth ?? 0) + 1
  }

  /// The coding keys from the top down to this one.
  var codingPath: [any CodingKey] {
    var keys: [any CodingKey] = []
    keys.reserveCapacity(depth)
    var node: ValueEncoderPath? = self
    while let current = node {
      keys.append(current.key)
      node = current.parent
    }
    return keys.reversed()
  }

  /// The stored names from the top down to this one, separated by `/`.
  var string: String {
    var names: [String] = []
    names.reserveCapacity(depth)
    var node: ValueEncoderPath? = self
    while let current = node {
      names.append(current.name)
      node = current.parent
    }
    return names.reversed().joined(separator: "/")
  }

  /// Where a value is, for messages: `the top level`, or the quoted key path of `name` below
  /// `path` (of `path` itself when `name` is nil).
  static func place(_ path: ValueEncoderPath?, _ name: String? = nil) -> String {
    let parentString = path?.string
    switch (parentString, name) {
    case (nil, nil): return "the top level"
    case (let parent?, nil): return WebcomKey.quoted(parent)
    case (nil, let name?): return WebcomKey.quoted(name)
    case (let parent?, let name?): return WebcomKey.quoted(parent + "/" + name)
    }
  }
}
