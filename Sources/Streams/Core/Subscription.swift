/// The link between a publisher and a subscriber.
///
/// `request(_:)` adds demand; `cancel()` stops delivery. Both are thread-safe; `cancel()` is
/// idempotent and may be called from inside the subscriber's `receive(_:)`.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
  /// Asks for `demand` more values.
  func request(_ demand: Subscribers.Demand)
}

/// The subscription of a subscriber that was never attached or already finished.
@usableFromInline
internal enum EmptySubscription: Subscription {
  case shared

  @inlinable
  func request(_ demand: Subscribers.Demand) {}

  @inlinable
  func cancel() {}

  @usableFromInline
  var combineIdentifier: CombineIdentifier { Self.identifier }

  @usableFromInline
  static let identifier = CombineIdentifier()
}

/// The empty subscription: requests and cancels do nothing.
public enum Subscriptions {
  /// A subscription that does nothing, for publishers that complete right away.
  public static var empty: any Subscription { EmptySubscription.shared }
}
