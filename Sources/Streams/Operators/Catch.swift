extension Publisher {
  /// Replaces a failure with the publisher `handler` makes from the error: the downstream is
  /// moved to that publisher, which is asked for the demand not yet served.
  ///
  /// ```swift
  /// let resilient = fetch().catch { _ in Just(cachedValue) }
  /// ```
  @inlinable
  public func `catch`<P: Publisher>(
    _ handler: @escaping (Failure) -> P
  ) -> Publishers.Catch<Self, P> where P.Output == Output {
    Publishers.Catch(upstream: self, handler: handler)
  }

  /// Replaces a failure with the publisher an error-throwing `handler` makes from the error; if
  /// `handler` throws, the publisher fails with that error.
  @inlinable
  public func tryCatch<P: Publisher>(
    _ handler: @escaping (Failure) throws -> P
  ) -> Publishers.TryCatch<Self, P> where P.Output == Output {
    Publishers.TryCatch(upstream: self, handler: handler)
  }
}

extension Publishers {
  /// A publisher that moves to another publisher when its upstream fails.
  public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    public typealias Output = Upstream.Output
    public typealias Failure = NewPublisher.Failure

    /// The publisher whose failure is handled.
    public let upstream: Upstream
    /// Makes the publisher that replaces the failed upstream.
    public let handler: (Upstream.Failure) -> NewPublisher

    /// Creates a `Catch` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let relay = SequentialUpstreamSubscription(downstream: subscriber, name: "Catch")
      let handler = self.handler
      relay.start()
      upstream.receive(
        subscriber:
          SequentialUpstreamInput<Output, Upstream.Failure, S>(relay) { completion in
            switch completion {
            case .finished:
              relay.complete(.finished)
            case .failure(let error):
              guard relay.isActive else { return }
              handler(error).receive(
                subscriber:
                  SequentialUpstreamInput<Output, Failure, S>(relay) { relay.complete($0) })
            }
          })
    }
  }

  /// A publisher that moves to another publisher, made by an error-throwing handler, when its
  /// upstream fails.
  public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher whose failure is handled.
    public let upstream: Upstream
    /// Makes the publisher that replaces the failed upstream; throwing fails the publisher.
    public let handler: (Upstream.Failure) throws -> NewPublisher

    /// Creates a `TryCatch` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let relay = SequentialUpstreamSubscription(downstream: subscriber, name: "TryCatch")
      let handler = self.handler
      relay.start()
      upstream.receive(
        subscriber:
          SequentialUpstreamInput<Output, Upstream.Failure, S>(relay) { completion in
            switch completion {
            case .finished:
              relay.complete(.finished)
            case .failure(let error):
              guard relay.isActive else { return }
              do {
                try handler(error).receive(
                  subscriber:
                    SequentialUpstreamInput<Output, NewPublisher.Failure, S>(relay) {
                      relay.complete($0.mapFailure { $0 })
                    })
              } catch {
                relay.complete(.failure(error))
              }
            }
          })
    }
  }
}
