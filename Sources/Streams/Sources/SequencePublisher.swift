import Synchronization

extension Publishers {
  /// A publisher that emits the elements of a sequence, as far as demand allows, then finishes.
  ///
  /// Delivery is demand-driven and takes no lock per element: the thread that receives demand
  /// delivers in a loop, checking an atomic cancellation flag between elements. `.finished` is sent
  /// right after the last element, without waiting for more demand.
  public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
    public typealias Output = Elements.Element

    /// The elements to emit.
    public let sequence: Elements

    /// A publisher of `sequence`'s elements.
    @inlinable
    public init(sequence: Elements) {
      self.sequence = sequence
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      var iterator = sequence.makeIterator()
      guard let first = iterator.next() else {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
        return
      }
      let subscription = SequenceSubscription(subscriber, iterator: iterator, first: first)
      subscriber.receive(subscription: subscription)
    }
  }
}

extension Publishers.Sequence: Sendable where Elements: Sendable {}
extension Publishers.Sequence: Equatable where Elements: Equatable {}

extension Sequence {
  /// A publisher that emits this sequence's elements, then finishes.
  ///
  /// ```swift
  /// let cancellable = (1...3).publisher.sink { print($0) }   // 1, 2, 3
  /// ```
  @inlinable
  public var publisher: Publishers.Sequence<Self, Never> {
    Publishers.Sequence(sequence: self)
  }
}

/// The subscription of `Publishers.Sequence`.
///
/// Its methods are `@inlinable` and reached through handlers created in `init`, so that the
/// delivery loop is specialised for the concrete subscriber in the module that subscribes (see
/// `HandlerSubscription`).
@usableFromInline
internal final class SequenceSubscription<Downstream: Subscriber, Iterator: IteratorProtocol>:
  HandlerSubscription
where Downstream.Input == Iterator.Element {
  @usableFromInline
  override var operatorName: String { "Sequence" }

  @usableFromInline let lock = StreamsLock()
  @usableFromInline let isCancelled = Atomic<Bool>(false)
  // Protected by `lock`: the subscriber, demand not yet taken by the delivering thread, whether a
  // thread is delivering. `iterator` and `upcoming` belong to the delivering thread, handed over
  // through `isDelivering` under the lock.
  // They are `@exclusivity(unchecked)`: the lock and the hand-over make each access exclusive, and the
  // runtime check would cost two calls per access in the code inlined into client modules.
  @exclusivity(unchecked) @usableFromInline var pendingDemand = Subscribers.Demand.none
  @exclusivity(unchecked) @usableFromInline var isDelivering = false
  @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
  @exclusivity(unchecked) @usableFromInline var iterator: Iterator
  @exclusivity(unchecked) @usableFromInline var upcoming: Iterator.Element?

  @inlinable
  init(_ downstream: Downstream, iterator: Iterator, first: Iterator.Element) {
    self.downstream = downstream
    self.iterator = iterator
    upcoming = first
    super.init(
      request: { subscription, demand in
        unsafeDowncast(subscription, to: SequenceSubscription<Downstream, Iterator>.self).deliver(
          demand)
      },
      cancel: { subscription in
        unsafeDowncast(subscription, to: SequenceSubscription<Downstream, Iterator>.self).stop()
      })
  }

  /// Adds demand; the first thread to find no delivery in progress delivers in a loop.
  @inlinable
  func deliver(_ demand: Subscribers.Demand) {
    lock.lock()
    guard let downstream, demand > 0 else {
      lock.unlock()
      return
    }
    pendingDemand += demand
    if isDelivering {
      lock.unlock()
      return
    }
    isDelivering = true
    var available = pendingDemand
    pendingDemand = .none
    lock.unlock()

    while true {
      while available > 0 {
        if isCancelled.load(ordering: .relaxed) { return }
        guard let element = upcoming else { return }
        upcoming = iterator.next()
        available -= 1
        available += downstream.receive(element)
        if upcoming == nil {
          finish(downstream)
          return
        }
      }
      lock.lock()
      if pendingDemand == .none || self.downstream == nil {
        isDelivering = false
        lock.unlock()
        return
      }
      available = pendingDemand
      pendingDemand = .none
      lock.unlock()
    }
  }

  @inlinable
  func finish(_ downstream: Downstream) {
    lock.lock()
    let isLive = self.downstream != nil
    self.downstream = nil
    lock.unlock()
    if isLive && !isCancelled.load(ordering: .relaxed) {
      downstream.receive(completion: .finished)
    }
  }

  @inlinable
  func stop() {
    isCancelled.store(true, ordering: .relaxed)
    lock.lock()
    let downstream = self.downstream
    self.downstream = nil
    lock.unlock()
    withExtendedLifetime(downstream) {}
  }
}
