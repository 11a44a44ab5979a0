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

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let logic = IgnoreOutputLogic<Upstream.Output, Failure>()
      upstream.receive(subscriber: StatelessSubscriber(logic: logic, downstream: subscriber))
    }
  }
}

@usableFromInline
internal struct IgnoreOutputLogic<Input, Failure: Error>: StatelessLogic {
  @usableFromInline typealias UpstreamFailure = Failure
  @usableFromInline typealias Output = Never

  @inlinable
  init() {}

  @usableFromInline
  var operatorName: String { "IgnoreOutput" }

  @inlinable
  var requestsUnlimitedUpstream: Bool { true }

  @inlinable
  func receive<Downstream: Subscriber>(
    _ input: Input, into downstream: Downstream
  ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure {
    .none
  }
}
