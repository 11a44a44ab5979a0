/// The coding keys that ``ValueDecoder`` makes itself, spelled as `JSONDecoder` spells them:
/// array positions (`"Index 3"`, integer value 3), keys of string-keyed dictionaries decoded
/// under a key strategy, and `"super"` for `superDecoder()`.
enum ValueDecodingKey: CodingKey {
  case index(Int)
  case string(String)

  /// The key of `superDecoder()` in a keyed container.
  static let `super` = ValueDecodingKey.string("super")

  init?(stringValue: String) {
    self = .string(stringValue)
  }

  init?(intValue: Int) {
    self = .index(intValue)
  }

  var stringValue: String {
    switch self {
    case .index(let index): "Index \(index)"
    case .string(let string): string
    }
  }

  var intValue: Int? {
    switch self {
    case .index(let index): index
    case .string: nil
    }
  }
}
