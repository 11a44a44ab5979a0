/// Writes the members of one object being encoded: the work of keyed containers (after their
/// key strategy) and of dictionaries keyed by `String`.
struct ValueEncoderObjectWriter {
  let encoding: ValueEncoding
  let object: EncodedObject
  /// The key path of the object.
  let path: ValueEncoderPath?
  /// The number of keys from the top down to the object.
  let depth: Int

  /// Writes a finished value.
  func store(_ value: JSONValue, name: String) throws(WebcomError) {
    let key = try memberKey(name)
    object.append(key, value)
  }

  /// Encodes a value and writes it; fails before the value's `encode(to:)` runs when the member
  /// would be too deep.
  func encode<T: Encodable>(_ value: T, name: String, key codingKey: any CodingKey) throws {
    let key = try memberKey(name)
    let storage = try encoding.encodeChild(value, below: path, name: name, key: codingKey)
    object.append(key, try storage.finished())
  }

  /// A writer into a new object written as the member `name`.
  func nestedObject(name: String, key codingKey: any CodingKey) -> ValueEncoderObjectWriter {
    let nestedPath = ValueEncoderPath(parent: path, name: name, key: codingKey)
    let nested = EncodedObject(path: nestedPath, validatesKeys: true)
    deferMember(.object(nested), name: name)
    return ValueEncoderObjectWriter(
      encoding: encoding, object: nested, path: nestedPath, depth: depth + 1)
  }

  /// A writer into a new array written as the member `name`.
  func nestedArray(name: String, key codingKey: any CodingKey) -> ValueEncoderArrayWriter {
    let nestedPath = ValueEncoderPath(parent: path, name: name, key: codingKey)
    let nested = EncodedArray()
    deferMember(.array(nested), name: name)
    return ValueEncoderArrayWriter(
      encoding: encoding, array: nested, path: nestedPath, depth: depth + 1)
  }

  /// A new encoder whose value is written as the member `name` when the object is finished.
  func superEncoder(name: String, key codingKey: any CodingKey) -> ValueEncoding {
    let nested = ValueEncoding(
      session: encoding.session, path: ValueEncoderPath(parent: path, name: name, key: codingKey),
      nesting: encoding.nesting + 1, keepsMembers: false)
    deferMember(.encoder(nested), name: name)
    return nested
  }

  /// Writes a member known later; an error (the `Encoder` API cannot throw here) is thrown when
  /// the encoding ends.
  private func deferMember(_ value: EncodedDeferredValue, name: String) {
    do throws(WebcomError) {
      object.appendDeferred(try memberKey(name), value)
    } catch {
      encoding.session.record(error)
    }
  }

  /// The key of a member: checked against the depth limit and, unless the object keeps its
  /// members' keys as written, validated (`.sv` is checked when the object is finished).
  private func memberKey(_ name: String) throws(WebcomError) -> WebcomKey {
    guard depth < JSONValue.maximumDepth else {
      throw WebcomError(
        .invalidValue,
        "the value at \(ValueEncoderPath.place(path, name)) cannot be stored: it is nested "
          + "deeper than \(JSONValue.maximumDepth) levels")
    }
    if object.validatesKeys, let reason = Self.invalidityReason(of: name) {
      throw WebcomError(
        .invalidKey,
        "the value at \(ValueEncoderPath.place(path, name)) cannot be stored: the key "
          + "\(WebcomKey.quoted(name)) is invalid: \(reason)")
    }
    return WebcomKey(name)
  }

  /// Why a member name cannot be a key (`.sv` passes here: its object is checked when
  /// finished).
  private static func invalidityReason(of name: String) -> String? {
    let reason =
      name.utf8.withContiguousStorageIfAvailable(WebcomKey.invalidityReason)
      ?? WebcomKey.invalidityReason(of: name.utf8)
    guard let reason, name != JSONValue.serverValueName else { return nil }
    return reason
  }
}
