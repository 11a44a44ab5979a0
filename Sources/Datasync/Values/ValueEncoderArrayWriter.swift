/// Writes the elements of one array being encoded: the work of unkeyed containers.
struct ValueEncoderArrayWriter {
  let encoding: ValueEncoding
  let array: EncodedArray
  /// The key path of the array.
  let path: ValueEncoderPath?
  /// The number of keys from the top down to the array.
  let depth: Int

  /// The number of elements written.
  var count: Int { array.count }

  /// Writes a finished value.
  func store(_ value: JSONValue) throws(WebcomError) {
    try checkDepth()
    array.append(value)
  }

  /// Encodes a value and writes it; fails before the value's `encode(to:)` runs when the
  /// element would be too deep.
  func encode<T: Encodable>(_ value: T) throws {
    try checkDepth()
    let index = array.count
    let storage = try encoding.encodeChild(
      value, below: path, name: String(index), key: ValueEncoderIndexKey(index))
    array.append(try storage.finished())
  }

  /// A writer into a new object written as the next element.
  func nestedObject() -> ValueEncoderObjectWriter {
    let nestedPath = nextPath()
    let nested = EncodedObject(path: nestedPath, validatesKeys: true)
    deferElement(.object(nested))
    return ValueEncoderObjectWriter(
      encoding: encoding, object: nested, path: nestedPath, depth: depth + 1)
  }

  /// A writer into a new array written as the next element.
  func nestedArray() -> ValueEncoderArrayWriter {
    let nestedPath = nextPath()
    let nested = EncodedArray()
    deferElement(.array(nested))
    return ValueEncoderArrayWriter(
      encoding: encoding, array: nested, path: nestedPath, depth: depth + 1)
  }

  /// A new encoder whose value is written as the next element when the array is finished.
  func superEncoder() -> ValueEncoding {
    let nested = ValueEncoding(
      session: encoding.session, path: nextPath(), nesting: encoding.nesting + 1,
      keepsMembers: false)
    deferElement(.encoder(nested))
    return nested
  }

  /// Where the next element is, for messages.
  func nextPlace() -> String {
    ValueEncoderPath.place(path, String(array.count))
  }

  private func nextPath() -> ValueEncoderPath {
    ValueEncoderPath(
      parent: path, name: String(array.count), key: ValueEncoderIndexKey(array.count))
  }

  /// Writes an element known later; an error (the `Encoder` API cannot throw here) is thrown
  /// when the encoding ends.
  private func deferElement(_ value: EncodedDeferredValue) {
    do throws(WebcomError) {
      try checkDepth()
    } catch {
      encoding.session.record(error)
    }
    array.appendDeferred(value)
  }

  private func checkDepth() throws(WebcomError) {
    guard depth < JSONValue.maximumDepth else {
      throw WebcomError(
        .invalidValue,
        "the value at \(nextPlace()) cannot be stored: it is nested deeper than "
          + "\(JSONValue.maximumDepth) levels")
    }
  }
}
