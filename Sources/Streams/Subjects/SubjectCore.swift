/// The state every subject shares: subscribers in subscription order, completion, upstreams.
///
/// Thread-safe through its lock; the subjects call out only after unlocking.
///
/// Its methods are `@inlinable` so that a subject's `send` is specialised where it is called.
@usableFromInline
internal final class SubjectCore<Output, Failure: Error> {
  @usableFromInline typealias Conduit = SubjectConduit<Output, Failure>

  @usableFromInline let lock = StreamsLock()
  // Protected by `lock`: the send sequence number, the conduits in subscription order, the
  // upstream subscriptions received through `send(subscription:)`, whether a subscriber has asked
  // for values (from then on upstreams are asked for `.unlimited`), the completion once sent.
  // They are `@exclusivity(unchecked)`: the lock already makes each access exclusive, and the
  // runtime check would cost two calls per access in the code inlined into client modules.
  @exclusivity(unchecked) @usableFromInline var sequence: UInt64 = 0
  @exclusivity(unchecked) @usableFromInline var conduits: [Conduit] = []
  @exclusivity(unchecked) @usableFromInline var upstreams: [any Subscription] = []
  @exclusivity(unchecked) @usableFromInline var hasDownstreamDemand = false
  @exclusivity(unchecked) @usableFromInline var completion: Subscribers.Completion<Failure>?

  /// A core whose upstreams are asked for values once a subscriber asked for values (as
  /// Combine's subjects do), or at once when `asksUpstreamsAtOnce`.
  @inlinable
  init(asksUpstreamsAtOnce: Bool = false) {
    hasDownstreamDemand = asksUpstreamsAtOnce
  }

  /// A subject that goes away cancels the upstream subscriptions it still holds.
  deinit {
    for upstream in upstreams {
      upstream.cancel()
    }
  }

  @inlinable
  func detach(_ identifier: ObjectIdentifier) {
    lock.lock()
    let index = conduits.firstIndex { ObjectIdentifier($0) == identifier }
    let removed = index.map { conduits.remove(at: $0) }
    lock.unlock()
    withExtendedLifetime(removed) {}
  }

  /// The conduits to offer a value to, after `update` ran under the lock; nil once completed.
  @inlinable
  func prepareSend(_ update: (UInt64) -> Void) -> (conduits: [Conduit], sequence: UInt64)? {
    lock.lock()
    defer { lock.unlock() }
    guard completion == nil else { return nil }
    sequence += 1
    update(sequence)
    return (conduits, sequence)
  }

  /// Offers a value to each of `conduits` (a copy taken under the lock), in order. It goes
  /// through the array's buffer: iterating the array itself would retain and release each
  /// conduit for every value, which costs more than the rest of the send.
  @inlinable
  func offer(_ value: Output, sequence: UInt64, to conduits: [Conduit]) {
    conduits.withUnsafeBufferPointer { conduits in
      for index in conduits.indices {
        conduits[index].offer(value, sequence: sequence)
      }
    }
  }

  /// Completes the subject: finishes every subscriber, once; later completions are ignored.
  @inlinable
  func complete(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard self.completion == nil else {
      lock.unlock()
      return
    }
    self.completion = completion
    let finishing = conduits
    let released = upstreams
    conduits = []
    upstreams = []
    lock.unlock()
    for conduit in finishing {
      conduit.finish(completion)
    }
    withExtendedLifetime(released) {}
  }

  /// Keeps an upstream subscription and, once a subscriber has asked for values, requests
  /// unlimited values from it; cancels it if the subject already completed.
  @inlinable
  func accept(upstream subscription: any Subscription) {
    lock.lock()
    guard completion == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstreams.append(subscription)
    let requestsNow = hasDownstreamDemand
    lock.unlock()
    if requestsNow {
      subscription.request(.unlimited)
    }
  }

  /// A subscriber asked for values: the first time, every upstream is asked for `.unlimited`.
  @inlinable
  func downstreamDidDemand() {
    lock.lock()
    guard !hasDownstreamDemand, completion == nil else {
      lock.unlock()
      return
    }
    hasDownstreamDemand = true
    let requested = upstreams
    lock.unlock()
    for upstream in requested {
      upstream.request(.unlimited)
    }
  }

  /// Attaches `subscriber` through a new conduit of `kind`. If the subject already completed, a
  /// passthrough or current-value subscriber gets the completion at once; a replay subscriber
  /// gets the `replayed` values (read under the lock), then the completion.
  @inlinable
  func subscribe<S: Subscriber>(
    _ subscriber: consuming S, owner: any SubjectConduitOwner<Output>, kind: SubjectKind,
    replayed: () -> [Output] = { [] }
  ) where S.Input == Output, S.Failure == Failure {
    let conduit = SubjectSubscription(
      downstream: consume subscriber, owner: owner, core: self, kind: kind)
    lock.lock()
    let completion = self.completion
    if kind == .replay {
      // The conduit is not shared yet: taking its lock under this one cannot deadlock.
      conduit.prefill(replayed(), completion: completion)
    }
    if completion == nil { conduits.append(conduit) }
    lock.unlock()
    if let completion, kind != .replay {
      conduit.rejectAfterCompletion(completion)
      return
    }
    conduit.start()
  }

  @inlinable
  func withLock<Result>(_ body: () -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }
}
