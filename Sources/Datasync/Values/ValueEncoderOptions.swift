import Foundation

/// The configuration of a `JSONEncoder` as ``ValueEncoder`` applies it, read once per encoding.
struct ValueEncoderOptions {
  /// How keyed containers name their keys.
  enum KeyNaming {
    case useDefaultKeys
    case convertToSnakeCase
    case custom(([any CodingKey]) -> any CodingKey)
  }

  let dates: JSONEncoder.DateEncodingStrategy
  let data: JSONEncoder.DataEncodingStrategy
  /// The strings that stand for +∞, -∞ and NaN, or nil when they are rejected.
  let nonConformingFloats: (positiveInfinity: String, negativeInfinity: String, nan: String)?
  let keys: KeyNaming
  let userInfo: [CodingUserInfoKey: Any]

  /// Whether keys are written as their coding keys name them.
  var keysAreDefault: Bool {
    if case .useDefaultKeys = keys { return true }
    return false
  }

  init(_ encoder: JSONEncoder) {
    dates = encoder.dateEncodingStrategy
    data = encoder.dataEncodingStrategy
    switch encoder.nonConformingFloatEncodingStrategy {
    case .throw:
      nonConformingFloats = nil
    case .convertToString(let positiveInfinity, let negativeInfinity, let nan):
      nonConformingFloats = (positiveInfinity, negativeInfinity, nan)
    }
    switch encoder.keyEncodingStrategy {
    case .useDefaultKeys: keys = .useDefaultKeys
    case .convertToSnakeCase: keys = .convertToSnakeCase
    case .custom(let convert): keys = .custom(convert)
    }
    userInfo = encoder.userInfo
  }
}
