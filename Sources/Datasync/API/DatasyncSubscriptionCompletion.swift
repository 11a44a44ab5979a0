/// How a subscription ended; passed once to its `onCompletion` callback.
public enum DatasyncSubscriptionCompletion: Sendable, Equatable {
  /// Cancelled: explicitly by ``DatasyncSubscription/cancel()`` or
  /// ``DatasyncManager/unsubscribeFromAll()``, or implicitly when its manager (for stored
  /// subscriptions) or the subscription itself (for the others) was released.
  case cancelled(explicitly: Bool)
  /// Revoked by the back end (for example when read permission is lost).
  case revoked(WebcomError)

  /// The error of a revocation, nil for a cancellation.
  public var error: WebcomError? {
    if case .revoked(let error) = self { return error }
    return nil
  }
}
