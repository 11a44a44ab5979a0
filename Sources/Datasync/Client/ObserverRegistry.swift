/// Observers kept by the token that removes them, called in the order they were added.
///
/// A plain value: its owner's lock protects it.
struct ObserverRegistry<Observer> {
  private var observers: [UInt64: Observer] = [:]
  private var nextToken: UInt64 = 1

  /// Adds `observer`; returns the token for ``remove(_:)``.
  mutating func add(_ observer: Observer) -> UInt64 {
    defer { nextToken += 1 }
    observers[nextToken] = observer
    return nextToken
  }

  /// Removes the observer `token` names; nothing when it was removed already.
  mutating func remove(_ token: UInt64) {
    observers[token] = nil
  }

  /// The observers, oldest first.
  var inOrder: [Observer] {
    observers.sorted { $0.key < $1.key }.map(\.value)
  }
}
