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
