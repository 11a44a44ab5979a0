extension Publisher {
  /// Ignores every value and forwards only the completion.
  ///
  /// Requests unlimited values from the upstream, whatever the downstream's demand, since no
  /// value is ever delivered.
  ///
  /// ```swift
  /// let cancellable = upload.ignoreOutput().sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// ```
  @inlinable
  public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
    Publishers.IgnoreOutput(upstream: self)
  }
}

extension Publishers {
  /// A publisher that ignores its upstream's values and forwards its completion.
  public struct IgnoreOutput<Upstream: Publisher>: Publisher {
    public typealias Output = Never
    public typealias Failure = Upstream.Failure

    /// The publisher whose completion is forwarded.
    public let upstream: Upstream

    /// Creates a `IgnoreOutput` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.receive(subscriber: IgnoreOutputSubscriber(downstream: subscriber))
    }
  }
}

/// The subscriber of `ignoreOutput()`: drops every value and passes the completion on.
///
/// Generic over its input rather than nested in `Publishers.IgnoreOutput`, so that a chain of
/// operators specialises (see `MapSubscriber`).
@usableFromInline
internal struct IgnoreOutputSubscriber<Input, Downstream: Subscriber>: Subscriber, OperatorNamed {
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  var operatorName: String { "IgnoreOutput" }

  @usableFromInline let downstream: Downstream
  @usableFromInline let combineIdentifier = CombineIdentifier()

  @inlinable
  init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
    subscription.request(.unlimited)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand { .none }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }
}
