extension Publisher {
  /// The values of this publisher as an `AsyncSequence` that throws the publisher's failure.
  ///
  /// ```swift
  /// for try await event in node.streams.events(to: .childAddition).values { print(event.key) }
  /// ```
  @inlinable
  public var values: AsyncThrowingPublisher<Self> {
    AsyncThrowingPublisher(self)
  }
}

/// The values of a publisher that can fail, as an `AsyncSequence` whose iterator throws the
/// failure.
///
/// Making the iterator subscribes (lazily, not before); each `next()` requests exactly one value
/// and waits for it. Copies of one iterator may wait in several tasks at once: each waiting call
/// adds one to the demand and gets its own value, and the stream's end resumes them all. Demand
/// asked before the subscription arrives accumulates; a value the publisher sends while no call
/// waits is not delivered, as with Combine. The loop ends when the publisher finishes, and throws
/// when it fails: once, in the oldest waiting call (the others, and later calls, return nil, as
/// with Combine). Cancelling the task, or leaving the loop, cancels the upstream subscription; a
/// cancelled loop ends without error.
public struct AsyncThrowingPublisher<Upstream: Publisher>: AsyncSequence {
  public typealias Element = Upstream.Output
  public typealias Failure = Upstream.Failure

  @usableFromInline let upstream: Upstream

  /// The values of `publisher`.
  @inlinable
  public init(_ publisher: Upstream) {
    upstream = publisher
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let channel = AsyncDemandChannel<Element, Failure>()
    upstream.subscribe(channel)
    return Iterator(channel: channel, lifetime: AsyncIteratorLifetime(channel))
  }

  /// Iterates over the publisher's values one demand at a time.
  public struct Iterator: AsyncIteratorProtocol, Sendable {
    @usableFromInline let channel: AsyncDemandChannel<Element, Failure>
    @usableFromInline let lifetime: AsyncIteratorLifetime

    @inlinable
    init(channel: AsyncDemandChannel<Element, Failure>, lifetime: AsyncIteratorLifetime) {
      self.channel = channel
      self.lifetime = lifetime
    }

    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure)
      -> Element?
    {
      try await channel.next(isolation: actor).get()
    }
  }
}
