import Synchronization

/// Identifies a subscription within its process, from its creation.
struct SubscriptionIdentifier: Hashable, Sendable, CustomStringConvertible {
  let value: UInt64

  init(_ value: UInt64) {
    self.value = value
  }

  var description: String { "s\(value)" }

  private static let last = Atomic<UInt64>(0)

  /// A new identifier, never returned before in this process.
  static func next() -> SubscriptionIdentifier {
    SubscriptionIdentifier(last.add(1, ordering: .relaxed).newValue)
  }
}
