import Foundation

/// The value of a node (or of an event): a JSON value, immutable and cheap to copy.
///
/// Datasync stores JSON normalised: null deletes, empty objects vanish, arrays are stored as
/// objects keyed `"0"`, `"1"`, … (``asArray()`` rebuilds them), integers stay integers and
/// floating numbers stay floating numbers (but `JSONEncoder` writes an integral `Double` such as
/// `3.0` as `3`, stored as an integer; ``asDouble`` and decoding as `Double` read it back). The accessors return `nil` when the value has another
/// type. Decoding uses the `JSONDecoder` of the application the value comes from.
///
/// ```swift
/// let value = event.value
/// if let text = value.asString { print(text) }
/// let message: Message? = value.decoded()
/// ```
public struct DatasyncValue: Sendable, Equatable, CustomStringConvertible {
  /// The value model.
  let tree: JSONValue
  /// The decoder of the application the value comes from; a default decoder when `nil`.
  let decoder: JSONDecoder?

  /// Wraps a value, decoded with a default `JSONDecoder`.
  init(_ tree: JSONValue) {
    self.tree = tree
    decoder = nil
  }

  /// Wraps a value, decoded with the application's decoder.
  init(_ tree: JSONValue, decoder: JSONDecoder) {
    self.tree = tree
    self.decoder = decoder
  }

  /// Creates a value by encoding `value` with `encoder`, normalised as the database stores it
  /// (for example to test a transaction function).
  ///
  /// ```swift
  /// let value = try DatasyncValue(encoding: ["likes": 3])
  /// value.asDictionary()?["likes"]?.asInt  // 3
  /// ```
  ///
  /// - Parameters:
  ///   - value: The value to encode.
  ///   - encoder: The encoder; use the application's `jsonEncoder` to follow its strategies.
  /// - Throws: ``WebcomError`` with code `invalidValue` (NaN, infinities), `invalidKey` (a
  ///   forbidden key) or `encodingFailed`, naming the culprit.
  public init<T: Encodable>(encoding value: T, encoder: JSONEncoder = JSONEncoder())
    throws(WebcomError)
  {
    self.init(try JSONValue.fromEncodable(value, encoder: encoder))
  }

  /// The null value.
  public static let null = DatasyncValue(.null)

  /// Whether the value is null (the node does not exist).
  public var isNull: Bool { tree.isNull }

  /// The string, or `nil` when the value is not a string.
  public var asString: String? {
    if case .string(let string) = tree { return string }
    return nil
  }

  /// The string as a key, or `nil` when the value is not a string that is a valid key.
  public var asKey: WebcomKey? {
    guard let asString else { return nil }
    return try? WebcomKey.validated(asString)
  }

  /// The integer, or `nil` when the value is not an integer (a floating number, even integral,
  /// gives `nil`) or does not fit in `Int`.
  public var asInt: Int? {
    if case .int(let int) = tree { return Int(exactly: int) }
    return nil
  }

  /// The number as a `Double`, integers included, or `nil` when the value is not a number.
  public var asDouble: Double? {
    switch tree {
    case .double(let double): double
    case .int(let int): Double(int)
    default: nil
    }
  }

  /// The Boolean, or `nil` when the value is not a Boolean.
  public var asBool: Bool? {
    if case .bool(let bool) = tree { return bool }
    return nil
  }

  /// The Boolean, or `defaultValue` when the value is not a Boolean (null included).
  public func asBool(default defaultValue: Bool) -> Bool {
    asBool ?? defaultValue
  }

  /// The number of children: of an object its entries (of an array its non-null elements), 0 for
  /// any other value. O(1), without making the children.
  ///
  /// ```swift
  /// let messages = try await room.value().childrenCount
  /// ```
  public var childrenCount: Int { tree.children?.count ?? 0 }

  /// The children by key, or `nil` when the value is not an object (arrays are objects keyed
  /// `"0"`, `"1"`, …).
  public func asDictionary() -> [String: DatasyncValue]? {
    guard let children = tree.children else { return nil }
    var dictionary: [String: DatasyncValue] = [:]
    dictionary.reserveCapacity(children.count)
    for (key, value) in children { dictionary[key.value] = child(value) }
    return dictionary
  }

  /// The elements of an array, or `nil` when the value is not an array.
  ///
  /// A stored object is an array when all its keys are `"0"`, `"1"`, … (no leading zeros) and
  /// more than half of the indices from 0 to its largest one hold a value, as hosted realtime
  /// databases decide; missing indices are null values. An array written with null elements
  /// keeps its length up to its last non-null element, and reads back as an object (keyed by
  /// the indices of its values) once half of its elements or more are null.
  public func asArray() -> [DatasyncValue]? {
    tree.arrayElements?.map(child)
  }

  private func child(_ value: JSONValue) -> DatasyncValue {
    DatasyncValue(value, decoderOrNil: decoder)
  }

  private init(_ tree: JSONValue, decoderOrNil: JSONDecoder?) {
    self.tree = tree
    decoder = decoderOrNil
  }

  /// The value decoded as `T`, or `nil` when it cannot be decoded.
  ///
  /// The value is decoded as the application's decoder would decode its JSON (``json``), with
  /// the decoder's strategies (see ``WebcomApplication/jsonDecoder``): an object that stores an
  /// array (see ``asArray()``) reads as a JSON array, so decode it as `[T]` (or `[T?]` when it
  /// has gaps), not as a dictionary.
  ///
  /// - Parameter type: The type to decode; inferred from the context when omitted.
  public func decoded<T: Decodable>(as type: T.Type = T.self) -> T? {
    try? decodedThrows(as: type)
  }

  /// The value decoded as `T`.
  ///
  /// - Parameter type: The type to decode; inferred from the context when omitted.
  /// - Throws: ``WebcomError`` with code `decodingFailed` and the decoder's reason.
  public func decodedThrows<T: Decodable>(as type: T.Type = T.self) throws(WebcomError) -> T {
    try tree.decoded(as: type, decoder: decoder ?? DatasyncValue.defaultDecoder)
  }

  /// The decoder of values that do not come from an application.
  private static let defaultDecoder = JSONDecoder()

  /// The value as compact JSON text (`null` for null), objects in key order, objects that store
  /// arrays (see ``asArray()``) as arrays.
  public var json: String { tree.jsonString }

  /// The value as compact UTF-8 JSON data, as ``json``.
  public var data: Data { tree.jsonData() }

  /// The JSON text of the value.
  public var description: String { json }

  /// Whether both values are the same JSON value (the decoders are not compared).
  public static func == (lhs: DatasyncValue, rhs: DatasyncValue) -> Bool {
    lhs.tree == rhs.tree
  }
}
