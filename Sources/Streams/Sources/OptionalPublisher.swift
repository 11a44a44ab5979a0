extension Optional {
  /// A publisher that emits the wrapped value once and finishes, or just finishes for `nil`.
  public struct Publisher: Streams.Publisher {
    public typealias Output = Wrapped
    public typealias Failure = Never

    /// The value to emit, if any.
    public let output: Wrapped?

    /// A publisher of `output`.
    @inlinable
    public init(_ output: Wrapped?) {
      self.output = output
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Wrapped, S.Failure == Never {
      guard let output else {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
        return
      }
      subscriber.receive(
        subscription: SingleValueSubscription(
          subscriber, result: .success(output), name: "Optional"))
    }
  }

  /// A publisher that emits this optional's value if there is one, then finishes.
  @inlinable
  public var publisher: Publisher {
    Publisher(self)
  }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}
