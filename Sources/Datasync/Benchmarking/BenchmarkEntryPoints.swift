import Foundation

/// The `package` entry points of `datasync-bench` into the internal model (paths, keys, push
/// identifiers) and values, which the benchmarks cannot see otherwise.
package enum BenchmarkEntryPoints {
  /// Parses an absolute path and returns its depth.
  ///
  /// - Throws: ``WebcomError`` with code `invalidPath`.
  package static func parsePath(_ path: String) throws(WebcomError) -> Int {
    try DatasyncPath(parsing: path).depth
  }

  /// A new push identifier from the shared generator.
  package static func nextPushIdentifier() -> WebcomKey {
    PushIdentifierGenerator.shared.next()
  }

  /// Encodes a value into the value model and returns the number of its direct children.
  ///
  /// - Throws: ``WebcomError`` as `JSONValue.fromEncodable(_:encoder:)`.
  package static func encodeToValueModel<T: Encodable>(_ value: T, encoder: JSONEncoder)
    throws(WebcomError) -> Int
  {
    try JSONValue.fromEncodable(value, encoder: encoder).children?.count ?? 0
  }

  /// Encodes a value into the value model, for ``decode(_:as:decoder:)``.
  ///
  /// - Throws: ``WebcomError`` as `JSONValue.fromEncodable(_:encoder:)`.
  package static func encodedValue<T: Encodable>(_ value: T, encoder: JSONEncoder)
    throws(WebcomError) -> DatasyncValue
  {
    DatasyncValue(try JSONValue.fromEncodable(value, encoder: encoder))
  }

  /// Decodes a value of the value model as `DatasyncValue.decodedThrows(as:)` does.
  ///
  /// - Throws: ``WebcomError`` with code `decodingFailed`.
  package static func decode<T: Decodable>(
    _ value: DatasyncValue, as type: T.Type, decoder: JSONDecoder
  )
    throws(WebcomError) -> T
  {
    try value.tree.decoded(as: type, decoder: decoder)
  }

  /// An object of `count` children keyed by push identifiers, each a short string, and a key
  /// absent from it.
  package static func makeObject(count: Int) -> ObjectProbe {
    let generator = PushIdentifierGenerator()
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let pairs = (0..<count).map { index in
      (
        key: generator.next(at: start.addingTimeInterval(Double(index) / 1000)),
        value: JSONValue.string("value \(index)")
      )
    }
    return ObjectProbe(object: JSONObject(pairs))
  }

  /// A `JSONObject` held for benchmarks.
  package struct ObjectProbe: Sendable {
    let object: JSONObject

    /// The number of children.
    package var count: Int { object.count }

    /// Sets a child in a copy and returns the copy's count.
    package func countAfterSetting(_ text: String, for key: WebcomKey) -> Int {
      object.setting(.string(text), for: key).count
    }

    /// The rank of a key.
    package func rank(of key: WebcomKey) -> Int {
      object.rank(of: key)
    }
  }
}
