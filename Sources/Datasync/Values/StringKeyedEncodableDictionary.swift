import Foundation

/// Dictionaries keyed by `String`, whose keys `JSONEncoder` writes as they are whatever its key
/// strategy.
protocol StringKeyedEncodableDictionary {
  func encodeMembers(into writer: ValueEncoderObjectWriter) throws
}

extension Dictionary: StringKeyedEncodableDictionary where Key == String, Value: Encodable {
  func encodeMembers(into writer: ValueEncoderObjectWriter) throws {
    for (key, value) in self {
      try writer.encode(value, name: key, key: ValueEncoderNameKey(stringValue: key))
    }
  }
}
