/// The effects of one change, in order: a set has at most one, kept without an array (a change
/// is made for every write and every change the back end sends).
enum ChangeEffects: RandomAccessCollection {
  case one(ChangeEffect)
  case list([ChangeEffect])

  /// No effect: the change modified nothing.
  static var empty: ChangeEffects { .list([]) }

  var startIndex: Int { 0 }

  var endIndex: Int {
    switch self {
    case .one: 1
    case .list(let effects): effects.count
    }
  }

  subscript(position: Int) -> ChangeEffect {
    switch self {
    case .one(let effect):
      precondition(position == 0, "position \(position) out of 0..<1")
      return effect
    case .list(let effects):
      return effects[position]
    }
  }
}
