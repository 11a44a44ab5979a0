/// An ordered list that keeps its first element inline and the others in an array: a list of one
/// element, the usual case of the lists an operation makes (the views a write touched, the
/// parcels of its events and their queues, the subscriptions a delivery served), allocates
/// nothing.
struct InlineFirstList<Element>: RandomAccessCollection, MutableCollection {
  /// The first element; nil only while the list is empty.
  private var head: Element?
  /// The elements after the first.
  private var tail: [Element] = []

  init() {}

  var startIndex: Int { 0 }

  var endIndex: Int { head == nil ? 0 : 1 + tail.count }

  subscript(position: Int) -> Element {
    get {
      precondition(position >= 0 && position < endIndex, "position \(position) out of range")
      return position == 0 ? head! : tail[position - 1]
    }
    set {
      precondition(position >= 0 && position < endIndex, "position \(position) out of range")
      if position == 0 { head = newValue } else { tail[position - 1] = newValue }
    }
  }

  mutating func append(_ element: Element) {
    if head == nil { head = element } else { tail.append(element) }
  }
}

extension InlineFirstList: Sendable where Element: Sendable {}
