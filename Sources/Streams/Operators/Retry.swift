extension Publisher {
  /// Subscribes to the upstream again, up to `retries` times, when it fails; the last failure is
  /// forwarded.
  ///
  /// The downstream receives its subscription when the first upstream subscription arrives, as
  /// with Combine (an upstream that completes without subscribing hands it an empty subscription
  /// first). Each new subscription is asked for the demand not yet served. Values delivered
  /// before a failure stay delivered. A negative count retries without limit, as with Combine. An upstream
  /// that fails synchronously while being subscribed again is retried in a loop, not by
  /// recursion, so a long run of immediate failures cannot exhaust the stack; the publisher ends
  /// as the last attempt ended.
  ///
  /// ```swift
  /// let cancellable = fetch().retry(2).sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  @inlinable
  public func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: retries)
  }
}

extension Publishers {
  /// A publisher that subscribes to its upstream again when it fails.
  public struct Retry<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher subscribed to again on failure.
    public let upstream: Upstream
    /// How many times to subscribe again; nil or a negative count retries without limit.
    public let retries: Int?

    /// Creates a `Retry` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, retries: Int?) {
      self.upstream = upstream
      self.retries = retries
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let relay = SequentialUpstreamSubscription(downstream: subscriber, name: "Retry")
      Self.attempt(upstream, relay: relay, attempts: RetryAttempts(retries: retries))
    }

    /// Subscribes to the upstream, again while attempts fail synchronously and retries remain.
    @inlinable
    static func attempt<S: Subscriber>(
      _ upstream: Upstream, relay: SequentialUpstreamSubscription<S>, attempts: RetryAttempts
    ) where S.Input == Output, S.Failure == Failure {
      repeat {
        guard relay.isActive else { return }
        attempts.beginSubscribing()
        upstream.receive(
          subscriber:
            SequentialUpstreamInput<Output, Failure, S>(relay) { completion in
              guard case .failure = completion, attempts.takeRetry() else {
                relay.complete(completion)
                return
              }
              if attempts.deferRetryToSubscribingLoop() { return }
              attempt(upstream, relay: relay, attempts: attempts)
            })
      } while attempts.endSubscribing()
    }
  }
}

/// The retries left to a `retry` subscription, and whether a retry was asked for while the
/// upstream was still being subscribed (the subscribing loop then makes it).
@usableFromInline
internal final class RetryAttempts {
  @usableFromInline let lock = StreamsLock()
  // Protected by `lock`: the retries left (nil or negative: no limit), whether a subscription to
  // the upstream is in progress, whether a retry is waiting for it to return.
  @usableFromInline var remaining: Int?
  @usableFromInline var isSubscribing = false
  @usableFromInline var hasDeferredRetry = false

  @inlinable
  init(retries: Int?) {
    remaining = retries
  }

  /// Uses up one retry; false when none is left.
  @inlinable
  func takeRetry() -> Bool {
    lock.withLock {
      guard let left = remaining else { return true }
      if left < 0 { return true }
      guard left > 0 else { return false }
      remaining = left - 1
      return true
    }
  }

  @inlinable
  func beginSubscribing() {
    lock.withLock { isSubscribing = true }
  }

  /// Whether the retry is left to the subscribing loop (the failure came during subscribing).
  @inlinable
  func deferRetryToSubscribingLoop() -> Bool {
    lock.withLock {
      guard isSubscribing else { return false }
      hasDeferredRetry = true
      return true
    }
  }

  /// Ends a subscribing step; true when a retry was deferred to it.
  @inlinable
  func endSubscribing() -> Bool {
    lock.withLock {
      isSubscribing = false
      defer { hasDeferredRetry = false }
      return hasDeferredRetry
    }
  }
}
