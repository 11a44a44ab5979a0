/// The coding key of an array element; its string (`Index 0`, as `JSONEncoder` names it) is made
/// only when asked for.
struct ValueEncoderIndexKey: CodingKey {
  let index: Int

  init(_ index: Int) {
    self.index = index
  }

  init?(stringValue: String) {
    guard stringValue.hasPrefix("Index "), let index = Int(stringValue.dropFirst(6)) else {
      return nil
    }
    self.index = index
  }

  init(intValue: Int) {
    index = intValue
  }

  var stringValue: String { "Index \(index)" }

  var intValue: Int? { index }
}
