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
