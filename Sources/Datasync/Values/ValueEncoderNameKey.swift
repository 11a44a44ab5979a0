/// The coding key of a dictionary member or of a `super` encoder.
struct ValueEncoderNameKey: CodingKey {
  let stringValue: String

  init(stringValue: String) {
    self.stringValue = stringValue
  }

  init?(intValue: Int) {
    nil
  }

  var intValue: Int? { nil }

  /// The key of `superEncoder()`.
  static let superKey = ValueEncoderNameKey(stringValue: "super")
}
