/// What a ``ValueEncoding`` has encoded so far.
enum ValueEncoderStorage {
  /// Nothing yet.
  case empty
  /// A finished value.
  case value(JSONValue)
  /// A keyed container's members, still open to writes.
  case object(EncodedObject)
  /// An unkeyed container's elements, still open to writes.
  case array(EncodedArray)

  /// The normalised value; nothing encoded gives null (as `JSONEncoder` gives `{}`).
  func finished() throws(WebcomError) -> JSONValue {
    switch self {
    case .empty: .null
    case .value(let value): value
    case .object(let object): try object.finished()
    case .array(let array): try array.finished()
    }
  }
}

/// A member whose value is known only when its container is finished: a nested container or a
/// `super` encoder, which the encoded type may still write after asking for it.
enum EncodedDeferredValue {
  case object(EncodedObject)
  case array(EncodedArray)
  case encoder(ValueEncoding)

  func finished() throws(WebcomError) -> JSONValue {
    switch self {
    case .object(let object): try object.finished()
    case .array(let array): try array.finished()
    case .encoder(let encoding): try encoding.storage.finished()
    }
  }
}

/// The members written into a keyed container, in writing order; finished once, into a sorted
/// and normalised object.
///
/// An encoding runs on one thread and no access to the state below overlaps another (none calls
/// out), so the state opts out of dynamic exclusivity checks, which cost as much as the writes.
final class EncodedObject {
  /// Where the object is, for messages.
  let path: ValueEncoderPath?
  /// Whether keys are validated as they are written (not for the members of a merge, which
  /// may be paths).
  let validatesKeys: Bool
  @exclusivity(unchecked) private var elements: [JSONObject.Element] = []
  @exclusivity(unchecked) private var deferred: [(index: Int, value: EncodedDeferredValue)] = []
  @exclusivity(unchecked) private var isSorted = true
  @exclusivity(unchecked) private var mayHoldNull = false
  @exclusivity(unchecked) private var hasServerValueKey = false

  init(path: ValueEncoderPath?, validatesKeys: Bool) {
    self.path = path
    self.validatesKeys = validatesKeys
    elements.reserveCapacity(8)
  }

  func append(_ key: WebcomKey, _ value: JSONValue) {
    if isSorted, !elements.isEmpty, !(elements[elements.count - 1].key < key) { isSorted = false }
    if value.isNull { mayHoldNull = true }
    if key.utf8Count == 3, key == JSONValue.serverValueKey { hasServerValueKey = true }
    elements.append((key, value))
  }

  func appendDeferred(_ key: WebcomKey, _ value: EncodedDeferredValue) {
    deferred.append((elements.count, value))
    append(key, .null)
  }

  /// The members sorted by key, a key written twice keeping its last value, nulls kept.
  func finishedMembers() throws(WebcomError) -> [JSONObject.Element] {
    var members = elements
    elements = []
    for (index, value) in deferred {
      members[index].value = try value.finished()
    }
    deferred = []
    if !isSorted { JSONObject.sortKeepingLast(&members) }
    return members
  }

  /// The normalised object: sorted, nulls dropped, null when empty.
  ///
  /// - Throws: `invalidKey` when `.sv` is a key outside the server value `{".sv": "timestamp"}`.
  func finished() throws(WebcomError) -> JSONValue {
    let hadDeferred = !deferred.isEmpty
    var members = try finishedMembers()
    if mayHoldNull || hadDeferred { members.removeAll { $0.value.isNull } }
    if hasServerValueKey,
      members.count != 1 || members[0].value != .string(WebcomDate.serverTimestampName)
    {
      throw WebcomError(
        .invalidKey,
        "the value at \(ValueEncoderPath.place(path, JSONValue.serverValueKey.value)) cannot be "
          + "stored: the key \".sv\" is invalid: it is only allowed in the server value "
          + "{\".sv\": \"timestamp\"}")
    }
    return members.isEmpty ? .null : .object(JSONObject(sortedUniqueNonNullPairs: members))
  }
}

/// The elements written into an unkeyed container; finished once, into an object keyed `"0"`,
/// `"1"`, … without its null elements.
///
/// Its state opts out of dynamic exclusivity checks, as ``EncodedObject``'s does.
final class EncodedArray {
  @exclusivity(unchecked) private var elements: [JSONValue] = []
  @exclusivity(unchecked) private var deferred: [(index: Int, value: EncodedDeferredValue)] = []

  /// The number of elements written.
  var count: Int { elements.count }

  func append(_ value: JSONValue) {
    elements.append(value)
  }

  func appendDeferred(_ value: EncodedDeferredValue) {
    deferred.append((elements.count, value))
    elements.append(.null)
  }

  /// The elements keyed by index, nulls kept.
  func finishedMembers() throws(WebcomError) -> [JSONObject.Element] {
    try finishedElements().enumerated().map { (EncodedArray.key(of: $0.offset), $0.element) }
  }

  /// The normalised object: null elements dropped, null when empty.
  func finished() throws(WebcomError) -> JSONValue {
    let values = try finishedElements()
    var members: [JSONObject.Element] = []
    members.reserveCapacity(values.count)
    for (index, value) in values.enumerated() where !value.isNull {
      members.append((EncodedArray.key(of: index), value))
    }
    return members.isEmpty ? .null : .object(JSONObject(sortedUniqueNonNullPairs: members))
  }

  private func finishedElements() throws(WebcomError) -> [JSONValue] {
    var values = elements
    elements = []
    for (index, value) in deferred {
      values[index] = try value.finished()
    }
    deferred = []
    return values
  }

  /// The key of the element at `index`.
  static func key(of index: Int) -> WebcomKey {
    index < indexKeys.count ? indexKeys[index] : WebcomKey(String(index))
  }

  private static let indexKeys = (0..<128).map { WebcomKey(String($0)) }
}
