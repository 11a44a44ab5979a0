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

/// The values of a publisher that cannot fail, as an `AsyncSequence`: an
/// ``AsyncThrowingPublisher`` whose failure type is `Never`, so that its iterator never throws
/// and a `for await` loop needs no `try`.
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
public typealias AsyncPublisher<Upstream: Publisher> = AsyncThrowingPublisher<Upstream>
where Upstream.Failure == Never
