extension Publisher where Failure == Never {
  /// The values of this publisher as an `AsyncSequence`, for `for await` loops.
  ///
  /// ```swift
  /// for await count in counter.values { print(count) }
  /// ```
  @inlinable
  public var values: AsyncPublisher<Self> {
    AsyncPublisher(self)
  }
}

/// The values of a publisher that cannot fail, as an `AsyncSequence`.
///
/// Making the iterator subscribes (lazily, not before); each `next()` requests exactly one value
/// and waits for it. Copies of one iterator may wait in several tasks at once: each waiting call
/// adds one to the demand and gets its own value, and the stream's end resumes them all. Demand
/// asked before the subscription arrives accumulates; a value the publisher sends while no call
/// waits is not delivered, as with Combine. The loop ends when the publisher finishes. Cancelling
/// the task, or leaving the loop (the iterator going away), cancels the upstream subscription and
/// ends the sequence. A publisher that delivers only on demand loses nothing; a hot publisher (a
/// subject) drops the values sent while the loop body runs — use
/// ``Publisher/values(bufferingPolicy:)`` to keep them.
public struct AsyncPublisher<Upstream: Publisher>: AsyncSequence where Upstream.Failure == Never {
  public typealias Element = Upstream.Output
  public typealias Failure = Never

  @usableFromInline let upstream: Upstream

  /// The values of `publisher`.
  @inlinable
  public init(_ publisher: Upstream) {
    upstream = publisher
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let channel = AsyncDemandChannel<Element, Never>()
    upstream.subscribe(channel)
    return Iterator(channel: channel, lifetime: AsyncIteratorLifetime(channel))
  }

  /// Iterates over the publisher's values one demand at a time.
  public struct Iterator: AsyncIteratorProtocol, Sendable {
    @usableFromInline let channel: AsyncDemandChannel<Element, Never>
    @usableFromInline let lifetime: AsyncIteratorLifetime

    @inlinable
    init(channel: AsyncDemandChannel<Element, Never>, lifetime: AsyncIteratorLifetime) {
      self.channel = channel
      self.lifetime = lifetime
    }

    @inlinable
    public mutating func next() async -> Element? {
      await next(isolation: nil)
    }

    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      switch await channel.next(isolation: actor) {
      case .success(let value): return value
      }
    }
  }
}
