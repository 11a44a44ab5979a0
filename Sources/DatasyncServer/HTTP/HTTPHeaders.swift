/// The header fields of a request or a response, in the order they were received or added.
///
/// Names are compared without regard to ASCII case (`content-type` finds `Content-Type`), as HTTP
/// requires; the original spelling is kept. A name may appear several times: ``subscript(_:)``
/// returns the first value, ``values(for:)`` all of them.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add("ETag", "\"abc\"")
/// headers["content-type"]  // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
  /// One header field.
  public typealias Field = (name: String, value: String)

  private var fields: [Field]

  /// Creates headers from fields, kept in this order.
  public init(_ fields: [Field] = []) {
    self.fields = fields
  }

  /// Creates headers from a literal, in the literal's order.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { (name: $0.0, value: $0.1) }
  }

  /// The number of fields (a repeated name counts once per occurrence).
  public var count: Int { fields.count }

  /// Whether there is no field.
  public var isEmpty: Bool { fields.isEmpty }

  /// The first value of the field named `name` (any case); setting replaces every field of that
  /// name by one field (appended at the end), or removes them all when set to nil.
  public subscript(_ name: String) -> String? {
    get { fields.first { Self.name($0.name, matches: name) }?.value }
    set {
      remove(name)
      if let newValue { fields.append((name: name, value: newValue)) }
    }
  }

  /// Every value of the fields named `name` (any case), in order.
  public func values(for name: String) -> [String] {
    fields.filter { Self.name($0.name, matches: name) }.map(\.value)
  }

  /// Whether a field named `name` (any case) is present.
  public func contains(_ name: String) -> Bool {
    fields.contains { Self.name($0.name, matches: name) }
  }

  /// Appends a field, keeping any field of the same name.
  public mutating func add(_ name: String, _ value: String) {
    fields.append((name: name, value: value))
  }

  /// Removes every field named `name` (any case).
  public mutating func remove(_ name: String) {
    fields.removeAll { Self.name($0.name, matches: name) }
  }

  /// The fields in order.
  public func makeIterator() -> IndexingIterator<[Field]> {
    fields.makeIterator()
  }

  /// Whether both hold the same fields in the same order (names compared without case).
  public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy {
        name($0.name, matches: $1.name) && $0.value == $1.value
      }
  }

  /// ASCII case-insensitive comparison of two field names, without allocating.
  static func name(_ name: String, matches other: String) -> Bool {
    var left = name.utf8.makeIterator()
    var right = other.utf8.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil):
        return true
      case (let a?, let b?):
        if a != b && lowercased(a) != lowercased(b) { return false }
      default:
        return false
      }
    }
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
  }
}
