/// A change of a child inside a view's window.
struct ChildChange {
  enum Kind {
    case removal, addition, change
  }
  let kind: Kind
  let key: WebcomKey
  /// The new value (the old one for a removal).
  let value: JSONValue
  /// The key of the preceding child in the new window (nil for removals and the first child).
  let previousKey: WebcomKey?
}
