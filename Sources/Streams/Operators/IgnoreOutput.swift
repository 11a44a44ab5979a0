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
      upstream.forward(to: subscriber, through: IgnoreOutputForwarding())
    }
  }
}

/// The logic of `ignoreOutput()`: asks for every value, drops each one and passes the completion
/// on.
@usableFromInline
internal struct IgnoreOutputForwarding<Input, Failure: Error>: ForwardingLogic {
  @usableFromInline typealias Output = Never
  @usableFromInline typealias UpstreamFailure = Failure
  @usableFromInline static var operatorName: String { "IgnoreOutput" }

  @inlinable
  init() {}

  @inlinable
  func forward<Downstream: Subscriber>(subscription: any Subscription, to downstream: Downstream) {
    downstream.receive(subscription: subscription)
    subscription.request(.unlimited)
  }

  @inlinable
  func forward<Downstream: Subscriber>(
    _ input: Input, to downstream: Downstream
  ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure {
    .none
  }
}
