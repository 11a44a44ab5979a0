extension Publishers {
  /// When `buffer(size:prefetch:whenFull:)` asks its upstream for values.
  public enum PrefetchStrategy: Sendable, Hashable {
    /// Asks for `size` values at subscription and one more for each value delivered, keeping the
    /// buffer full.
    case keepFull
    /// Asks the upstream for `.unlimited` at subscription and holds what the downstream has not
    /// asked for yet, as Combine does.
    case byRequest
  }

  /// What `buffer(size:prefetch:whenFull:)` does with a value arriving when the buffer is full.
  public enum BufferingStrategy<Failure: Error> {
    /// Drops the arriving value.
    case dropNewest
    /// Drops the oldest buffered value to make room.
    case dropOldest
    /// Cancels the upstream and fails with the error made by the closure, after the values
    /// already buffered are delivered.
    case customError(() -> Failure)
  }
}

extension Publisher {
  /// Holds up to `size` values that the downstream has not asked for yet.
  ///
  /// Values are delivered in order as demand arrives. With `.keepFull` the upstream is asked for
  /// `size` values at subscription and one more per value delivered; with `.byRequest` it is
  /// asked for `.unlimited` at subscription (as Combine does), so values sent before the
  /// downstream asks are buffered, not lost. A value arriving while `size` values wait (and the
  /// downstream has no unused demand) is handled by `whenFull`: `.dropNewest` drops it,
  /// `.dropOldest` drops the oldest waiting value, `.customError` cancels the upstream and fails
  /// after the waiting values are delivered. A normal finish is delivered after the buffered
  /// values; an upstream failure at once. A `size` below 1 is treated as 1.
  ///
  /// As with Combine, the downstream is handed its subscription once the upstream's subscription
  /// arrived and was asked for values: what a synchronous upstream sends in answer fills the
  /// buffer first (`Just(1)` or a sequence of at most `size` values loses nothing; a longer
  /// sequence under `.byRequest` meets `whenFull`).
  ///
  /// ```swift
  /// // request(1), send 1, 2, 3, 4, request(5) delivers [1, 3, 4]
  /// subject.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest)
  /// ```
  ///
  @inlinable
  public func buffer(
    size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) -> Publishers.Buffer<Self> {
    Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
  }
}

extension Publishers {
  /// A publisher that buffers its upstream's values until they are demanded.
  ///
  /// See ``Publisher/buffer(size:prefetch:whenFull:)`` for the semantics.
  public struct Buffer<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The upstream publisher.
    public let upstream: Upstream
    /// The most values held.
    public let size: Int
    /// When to ask the upstream for values.
    public let prefetch: PrefetchStrategy
    /// What to do when the buffer is full.
    public let whenFull: BufferingStrategy<Failure>

    /// A buffer of `size` values in front of `upstream`.
    @inlinable
    public init(
      upstream: Upstream, size: Int, prefetch: PrefetchStrategy,
      whenFull: BufferingStrategy<Failure>
    ) {
      self.upstream = upstream
      self.size = Swift.max(size, 1)
      self.prefetch = prefetch
      self.whenFull = whenFull
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = BufferSubscription(
        downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull)
      upstream.receive(subscriber: subscription.link(0))
    }
  }
}

@usableFromInline
internal final class BufferSubscription<Downstream: Subscriber>: StatefulOperatorSubscription<
  Downstream
>,
UpstreamOwner
{
  @usableFromInline
  override var operatorName: String { "Buffer" }

  // Immutable configuration; `upstream` is protected by the inherited `lock`.
  @usableFromInline
  let size: Int
  @usableFromInline
  let prefetch: Publishers.PrefetchStrategy
  @usableFromInline
  let whenFull: Publishers.BufferingStrategy<Downstream.Failure>
  @usableFromInline
  @exclusivity(unchecked) var upstream = UpstreamState()

  @inlinable
  init(
    downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Downstream.Failure>
  ) {
    self.size = size
    self.prefetch = prefetch
    self.whenFull = whenFull
    super.init(downstream: downstream)
    // Nothing reaches the downstream before it has its subscription (handed over by `start()`
    // once the upstream was asked for values): what arrives first waits in the buffer.
    delivery.isDelivering = true
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    let demand: Subscribers.Demand = prefetch == .keepFull ? .max(size) : .unlimited
    let isAttached = lock.attachSubscription(subscription, asking: demand) {
      upstream.attach(subscription, isWanted: !delivery.isClosed)
    }
    if isAttached { start() }
  }

  @inlinable
  override func didDeliverValue(_ effects: inout DeferredEffects) {
    if prefetch == .keepFull, let subscription = upstream.subscription {
      effects.request(.max(1), from: subscription)
    }
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Downstream.Input) {
    lock.lock()
    guard !upstream.isFinished else {
      lock.unlock()
      return
    }
    guard delivery.bufferedCount >= size, delivery.unusedDemand == .none else {
      delivery.push(value)
      lock.unlock()
      drain()
      return
    }
    switch whenFull {
    case .dropNewest:
      lock.unlock()
      withExtendedLifetime(value) {}
    case .dropOldest:
      let dropped = delivery.dropOldest()
      delivery.push(value)
      lock.unlock()
      withExtendedLifetime(dropped) {}
    case .customError(let makeError):
      let subscription = upstream.finish()
      lock.unlock()
      subscription?.cancel()
      let error = makeError()
      lock.lock()
      delivery.finishAfterWaitingValues(.failure(error))
      lock.unlock()
      drain()
    }
  }

  @inlinable
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard !upstream.isFinished else {
      lock.unlock()
      return
    }
    _ = upstream.finish()
    finishAndUnlock(completion)
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    effects.cancel(upstream.finish())
  }
}
