import Foundation

/// An observation of a state, cancel it to stop: a service's connection state, made by
/// ``DatasyncManager/observeState(queue:onChange:)`` (it also ends when its manager is
/// deinitialized), or an application's authentication state, made by
/// ``AuthenticationService/observeState(queue:onChange:)``.
public final class DatasyncStateObservation: @unchecked Sendable {
  private let lock = NSLock()
  // Protected by `lock`: what stops the observation, nil once run.
  private var stop: (@Sendable () -> Void)?

  init(stop: @escaping @Sendable () -> Void) {
    self.stop = stop
  }

  /// Stops the observation: `onChange` is not called after this returns, unless a call was
  /// already dispatched to its queue. Calling it again does nothing.
  public func cancel() {
    let stop = lock.withLock { () -> (@Sendable () -> Void)? in
      defer { self.stop = nil }
      return self.stop
    }
    stop?()
  }
}
