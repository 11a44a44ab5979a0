import Foundation

/// The value model of Datasync: a normalised, immutable JSON tree.
///
/// Normalisation: a stored object is never empty and never holds a null child (writing null
/// deletes, objects left empty vanish); arrays are stored as objects keyed `"0"`, `"1"`, …
/// (null elements leave gaps); integers stay `Int64` and floating numbers stay `Double`; NaN and
/// infinities are never stored. Copies are O(1) (objects are persistent trees shared between
/// versions) and equality is structural, O(1) when both sides share storage.
package enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case object(JSONObject)

  /// The deepest nesting of objects in a value, matching the deepest path.
  static let maximumDepth = DatasyncPath.maximumDepth

  /// Whether the value is null (an empty object counts as null).
  var isNull: Bool {
    switch self {
    case .null: true
    case .object(let object): object.isEmpty
    default: false
    }
  }

  /// Whether both values are equal scalars or objects sharing their storage: a cheap test that
  /// implies equality.
  func isIdentical(to other: JSONValue) -> Bool {
    switch (self, other) {
    case (.object(let lhs), .object(let rhs)): lhs.root === rhs.root
    case (.double(let lhs), .double(let rhs)): lhs.bitPattern == rhs.bitPattern
    case (.object, _), (_, .object): false
    default: self == other
    }
  }

  /// The children of an object, `nil` for other values.
  var children: JSONObject? {
    if case .object(let object) = self { return object }
    return nil
  }

  /// The value of a child, null when absent.
  subscript(key: WebcomKey) -> JSONValue {
    children?[key] ?? .null
  }

  /// The value of a descendant, null when absent. The descent retains no node on the way (this
  /// value holds them all): only the value found is copied.
  func value(at keys: some Collection<WebcomKey>) -> JSONValue {
    var remainingKeys = keys.makeIterator()
    guard var key = remainingKeys.next() else { return self }
    guard let root = children?.root else { return .null }
    var object = Unmanaged.passUnretained(root)
    while true {
      guard let entry = PersistentOrderedMap.node(for: key, under: object) else { return .null }
      guard let next = remainingKeys.next() else {
        return entry._withUnsafeGuaranteedRef { $0.value }
      }
      guard let child = entry._withUnsafeGuaranteedRef({ $0.value.children?.root }) else {
        return .null
      }
      object = Unmanaged.passUnretained(child)
      key = next
    }
  }

  /// The value with the descendant at `keys` replaced by `value`, normalised: setting null
  /// deletes, objects left empty vanish up the path, and a non-object on the path is replaced by
  /// an object (unless the value set is null: deleting below a non-object changes nothing).
  /// When nothing changes, the result shares the storage of this value.
  func setting(_ value: JSONValue, at keys: some Collection<WebcomKey>) -> JSONValue {
    settingReturningReplaced(value, at: keys).result
  }

  /// ``setting(_:at:)``, with the value it replaced at `keys` (null when absent), found on the
  /// way down: the caller needs no second lookup to tell what the write changed.
  func settingReturningReplaced(_ value: JSONValue, at keys: some Collection<WebcomKey>) -> (
    result: JSONValue, replaced: JSONValue
  ) {
    var replaced = JSONValue.null
    let result = setting(value, at: Array(keys)[...], replaced: &replaced)
    return (result, replaced)
  }

  private func setting(
    _ value: JSONValue, at keys: ArraySlice<WebcomKey>, replaced: inout JSONValue
  ) -> JSONValue {
    guard let key = keys.first else {
      replaced = self
      return value.isNull ? .null : value
    }
    if keys.count == 1 {
      // The written child: the value it replaces is found while inserting the new one.
      let object = children ?? JSONObject()
      let (result, old) = object.settingReturningReplaced(value, for: key)
      replaced = old ?? .null
      if result.isIdentical(to: object) { return self }
      return result.isEmpty ? .null : .object(result)
    }
    let current = self[key]
    let child = current.setting(value, at: keys.dropFirst(), replaced: &replaced)
    if child.isIdentical(to: current) { return self }
    let object = (children ?? JSONObject()).setting(child, for: key)
    return object.isEmpty ? .null : .object(object)
  }

  /// A floating number, or `invalidValue` when it is NaN or infinite.
  ///
  /// - Parameter culprit: What the number is, for the error message.
  static func finite(_ number: Double, culprit: String = "the number") throws(WebcomError)
    -> JSONValue
  {
    guard number.isFinite else {
      throw WebcomError(
        .invalidValue, "\(culprit) is \(number): NaN and infinities cannot be stored")
    }
    return .double(number)
  }
}

// MARK: - Conversions

extension JSONValue {
  /// Encodes a value into the value model with the strategies of the application's encoder (see
  /// ``ValueEncoder``): the result is the one the encoder's JSON text would give. `encoder` is
  /// read only for a value that needs its strategies, not for a string, a Boolean or an integer
  /// the value model holds as it is (``ValueEncoding/plainValue(of:)``).
  ///
  /// - Throws: ``WebcomError`` with code `invalidValue` for NaN or an infinity (unless the
  ///   encoder's `nonConformingFloatEncodingStrategy` turns them into strings) or nesting deeper
  ///   than 32 levels, `invalidKey` for a key that cannot be stored, `encodingFailed` when the
  ///   encoding fails for another reason; each message names the key path.
  static func fromEncodable<T: Encodable>(
    _ value: T, encoder: @autoclosure () -> JSONEncoder
  ) throws(WebcomError) -> JSONValue {
    if let plain = ValueEncoding.plainValue(of: value) { return plain }
    return try ValueEncoder(configuration: encoder()).encode(value)
  }

  /// Parses JSON text (UTF-8) into the value model, normalising it.
  ///
  /// - Throws: ``WebcomError`` with code `invalidValue` for malformed JSON, numbers out of the
  ///   finite range or nesting deeper than 32 levels, `invalidKey` for a key that cannot be
  ///   stored; the message names the key path.
  static func fromJSONData(_ data: Data) throws(WebcomError) -> JSONValue {
    try JSONParser.parse(data)
  }

  /// The JSON text (UTF-8) of the value. Objects whose keys are `"0"`, `"1"`, … (see
  /// ``arrayElements``) are written as arrays, gaps as null.
  func jsonData() -> Data {
    var writer = JSONWriter()
    writer.write(self)
    return Data(writer.bytes)
  }

  /// The JSON text of the value, as ``jsonData()``.
  var jsonString: String {
    var writer = JSONWriter()
    writer.write(self)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// Decodes the value with the strategies of the application's decoder, straight from the
  /// value model (see ``ValueDecoder``): as `decoder` would decode the value's JSON text.
  ///
  /// - Throws: ``WebcomError`` with code `decodingFailed` and the reason, naming the key path.
  func decoded<T: Decodable>(as type: T.Type, decoder: JSONDecoder) throws(WebcomError) -> T {
    do {
      return try ValueDecoder.decode(T.self, from: self, configuration: decoder)
    } catch let error as DecodingError {
      throw WebcomError(decodingError: error, type: T.self)
    } catch {
      throw WebcomError(.decodingFailed, "decoding a value of type \(T.self) failed: \(error)")
    }
  }

  /// The elements of an object that stores an array, as hosted realtime databases detect
  /// arrays: every key is a canonical non-negative integer (`"0"`, `"1"`, … without leading
  /// zeros) and more than half of the slots from 0 to the largest index hold a value
  /// (`2 × count > largest index + 1`). Missing indices are null. `nil` for other values, so
  /// `{"1": "a"}` and `{"0": "a", "3": "d"}` are objects while `{"0": "a", "2": "c"}` is the
  /// array `["a", null, "c"]`.
  var arrayElements: [JSONValue]? {
    guard let count = arrayCount, case .object(let object) = self, let root = object.root else {
      return nil
    }
    var elements = [JSONValue](repeating: .null, count: count)
    root.forEachInOrder { node in elements[node.canonicalIndex!] = node.value }
    return elements
  }

  /// The number of elements of ``arrayElements`` (gaps included), found without allocating;
  /// `nil` when the value does not store an array.
  var arrayCount: Int? {
    guard case .object(let object) = self else { return nil }
    return object.root?.arrayCount
  }
}

// MARK: - Limits

extension JSONValue {
  /// Checks that writing this value at `path` keeps the path of every stored value within the
  /// limits: at most 32 levels and 768 UTF-8 bytes. O(size of the value).
  ///
  /// - Throws: ``WebcomError`` with code `invalidValue` naming the first path over a limit.
  func checkLimits(at path: DatasyncPath) throws(WebcomError) {
    guard case .object(let object) = self, let root = object.root else { return }
    let bytes = path.isRoot ? 0 : path.utf8Count
    // A walk of the nodes that builds nothing (no iterator, no list of keys): a value within the
    // limits costs only the walk; the culprit's keys are gathered on the way back from it.
    guard let excess = Self.excess(under: root, depth: path.depth, bytes: bytes) else { return }
    let culprit = DatasyncPath(validatedKeys: path.keys + excess.reversedKeys.reversed())
    throw WebcomError(
      .invalidValue,
      "the value written at \(WebcomKey.quoted(path.string)) cannot be stored: the path "
        + "\(WebcomKey.quoted(culprit.string)) \(excess.reason)")
  }

  /// The first entry, in key order, of the object whose tree is under `root` (at `depth` levels
  /// and `bytes` UTF-8 bytes) with a path over a limit, itself or a descendant: its keys from the
  /// deepest, and why; nil when every path is within the limits.
  private static func excess(under root: JSONObjectNode, depth: Int, bytes: Int)
    -> (reversedKeys: [WebcomKey], reason: String)?
  {
    root.firstInOrder { node in
      let key = node.key
      let childBytes = bytes + 1 + key.utf8Count
      if depth + 1 > DatasyncPath.maximumDepth {
        return (
          [key],
          "is \(depth + 1) levels deep, more than the limit of \(DatasyncPath.maximumDepth)"
        )
      }
      if childBytes > WebcomKey.maximumUTF8Count {
        return (
          [key],
          "is \(childBytes) UTF-8 bytes long, more than the limit of "
            + "\(WebcomKey.maximumUTF8Count)"
        )
      }
      guard case .object(let child) = node.value, let childRoot = child.root,
        var found = excess(under: childRoot, depth: depth + 1, bytes: childBytes)
      else { return nil }
      found.reversedKeys.append(key)
      return found
    }
  }
}

// MARK: - Server values

extension JSONValue {
  /// Whether this value is the server-value placeholder `{".sv": "timestamp"}`.
  var isServerTimestamp: Bool {
    guard case .object(let object) = self, object.count == 1, let only = object.first else {
      return false
    }
    return only.key == JSONValue.serverValueKey
      && only.value == .string(WebcomDate.serverTimestampName)
  }

  /// The key of server-value objects, as a string (compared with parsed and encoded names
  /// without making the key's string).
  static let serverValueName = ".sv"

  /// The key of server-value objects.
  static let serverValueKey = WebcomKey(serverValueName)

  /// Whether the value holds a server-value placeholder anywhere.
  var containsServerValues: Bool {
    guard case .object(let object) = self else { return false }
    if isServerTimestamp { return true }
    return object.containsValue { $0.containsServerValues }
  }

  /// The value with every server-value placeholder replaced by `now` in milliseconds since 1970.
  func resolvingServerValues(now: Date) -> JSONValue {
    guard containsServerValues else { return self }
    return resolvingServerValues(milliseconds: WebcomDate(now).milliseconds ?? 0)
  }

  private func resolvingServerValues(milliseconds: Int64) -> JSONValue {
    guard case .object(let object) = self else { return self }
    if isServerTimestamp { return .int(milliseconds) }
    var result = object
    for (key, child) in object where child.containsServerValues {
      result = result.setting(child.resolvingServerValues(milliseconds: milliseconds), for: key)
    }
    return .object(result)
  }
}

extension WebcomKey {
  /// The index of a key that is a canonical non-negative integer fitting in `Int32`, else `nil`.
  var canonicalIndex: Int? {
    guard let integer = integerValue else { return nil }
    return WebcomKey.canonicalIndex(integer: integer, utf8Count: utf8Count)
  }

  /// The index named by an integer key of `utf8Count` bytes whose value is `integer`, when it is
  /// canonical (non-negative, no leading zero or sign, fitting in `Int32`), else `nil`.
  static func canonicalIndex(integer: Int64, utf8Count: Int) -> Int? {
    guard integer >= 0, integer <= Int32.max else { return nil }
    var digits = 1
    var rest = integer / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    return digits == utf8Count ? Int(integer) : nil
  }
}

extension WebcomError {
  /// An error for a failure of the application's encoder.
  init(encodingError: EncodingError, type: Any.Type) {
    switch encodingError {
    case .invalidValue(let value, let context):
      let path = WebcomError.keyPath(context.codingPath)
      if let number = value as? any BinaryFloatingPoint {
        self.init(
          .invalidValue,
          "the number at \(path) of the value of type \(type) is \(number): NaN and infinities "
            + "cannot be stored")
      } else {
        self.init(
          .encodingFailed,
          "encoding the value at \(path) of the value of type \(type) failed: "
            + context.debugDescription)
      }
    @unknown default:
      self.init(.encodingFailed, "encoding a value of type \(type) failed: \(encodingError)")
    }
  }

  /// An error for a failure of the application's decoder, with the decoder's reason.
  init(decodingError: DecodingError, type: Any.Type) {
    let reason: String
    let context: DecodingError.Context
    switch decodingError {
    case .typeMismatch(let expected, let errorContext):
      reason = "expected a value of type \(expected)"
      context = errorContext
    case .valueNotFound(let expected, let errorContext):
      reason = "expected a value of type \(expected) but found null"
      context = errorContext
    case .keyNotFound(let key, let errorContext):
      reason = "the key \"\(key.stringValue)\" is missing"
      context = errorContext
    case .dataCorrupted(let errorContext):
      reason = "the data is corrupted"
      context = errorContext
    @unknown default:
      self.init(.decodingFailed, "decoding a value of type \(type) failed: \(decodingError)")
      return
    }
    self.init(
      .decodingFailed,
      "decoding a value of type \(type) failed at \(WebcomError.keyPath(context.codingPath)): "
        + "\(reason) (\(context.debugDescription))")
  }

  /// A coding path spelled as a Datasync path, relative to the encoded value.
  static func keyPath(_ codingPath: [any CodingKey]) -> String {
    codingPath.isEmpty
      ? "the top level"
      : "\""
        + codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(
          separator: "/") + "\""
  }
}
