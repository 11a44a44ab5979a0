/// A publisher that starts producing only when `connect()` is called.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
  /// Connects to the upstream; cancel the result to disconnect.
  func connect() -> any Cancellable
}
