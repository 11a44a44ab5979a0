import Synchronization

extension Subscribers {
  /// A subscriber that requests unlimited values and hands each one to a closure.
  ///
  /// Values take no lock: the closure is called directly. On completion the closures are released
  /// (so a closure capturing its owner does not keep it alive); `cancel()` cancels the upstream and
  /// is thread-safe and idempotent.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable,
    CustomStringConvertible
  {
    /// The two closures, kept together so that a value reaches `receiveValue` without a retain
    /// and a release of its context: the sink holds them unmanaged, retained once, and calls
    /// through a guaranteed reference.
    @usableFromInline
    internal final class Handlers {
      @usableFromInline let receiveValue: (Input) -> Void
      @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

      @inlinable
      init(
        receiveValue: @escaping (Input) -> Void,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
      ) {
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
      }
    }

    // `handlers` and `receivingDepth` are only touched by the serialised calls of the upstream
    // (values, then completion) and by `deinit`, never concurrently.
    // `upstream` belongs to whoever `state` admits: the subscription call while `subscribing`,
    // then the one call that moves `subscribed` to `terminated` (a cancel or the completion).
    // They are `@exclusivity(unchecked)`: that serialisation and that hand-over make each access
    // exclusive, and the runtime check would cost two calls per access in the code inlined into
    // client modules.
    /// The closures, retained once by the sink until the completion (or its end).
    @exclusivity(unchecked) @usableFromInline internal var handlers: Unmanaged<Handlers>?
    /// How many calls of `receiveValue` are running (more than one only if a closure makes its
    /// upstream deliver again, re-entrantly).
    @exclusivity(unchecked) @usableFromInline internal var receivingDepth = 0
    /// The phase, a ``Phase`` raw value: an atomic rather than a lock, which saves allocating a
    /// lock for every sink.
    @usableFromInline internal let state = Atomic<UInt8>(Phase.waiting.rawValue)
    @exclusivity(unchecked) @usableFromInline internal var upstream = HeldSubscription()

    @usableFromInline
    internal enum Phase: UInt8 {
      case waiting, subscribing, subscribed, terminated
    }

    /// A sink calling `receiveCompletion` once at the end and `receiveValue` for every value.
    @inlinable
    public init(
      receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
      receiveValue: @escaping (Input) -> Void
    ) {
      handlers = Unmanaged.passRetained(
        Handlers(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
    }

    deinit {
      handlers?.release()
    }

    public var description: String { "Sink" }

    @inlinable
    public func receive(subscription: any Subscription) {
      guard advance(from: .waiting, to: .subscribing) else {
        subscription.cancel()
        return
      }
      upstream.hold(subscription)
      guard advance(from: .subscribing, to: .subscribed) else {
        // Cancelled or completed meanwhile: the subscription is still this call's to end.
        _ = upstream.take()
        subscription.cancel()
        return
      }
      subscription.request(.unlimited)
    }

    @inlinable
    public func receive(_ input: Input) -> Subscribers.Demand {
      guard let handlers else { return .none }
      receivingDepth += 1
      handlers._withUnsafeGuaranteedRef { $0.receiveValue(input) }
      receivingDepth -= 1
      // A completion that arrived inside the call took the closures without releasing them.
      if receivingDepth == 0 && self.handlers == nil {
        handlers.release()
      }
      return .none
    }

    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
      let previous = state.exchange(Phase.terminated.rawValue, ordering: .acquiringAndReleasing)
      if previous == Phase.subscribed.rawValue { _ = upstream.take() }
      let isLive = previous != Phase.terminated.rawValue
      guard let handlers else { return }
      self.handlers = nil
      if isLive {
        handlers._withUnsafeGuaranteedRef { $0.receiveCompletion(completion) }
      }
      // Inside `receiveValue`, the outermost call releases them once it returns.
      if receivingDepth == 0 {
        handlers.release()
      }
    }

    /// Moves the phase from `expected` to `desired`; returns whether it was `expected`.
    @inlinable
    internal func advance(from expected: Phase, to desired: Phase) -> Bool {
      state.compareExchange(
        expected: expected.rawValue, desired: desired.rawValue, ordering: .acquiringAndReleasing
      ).exchanged
    }

    @inlinable
    public func cancel() {
      let previous = state.exchange(Phase.terminated.rawValue, ordering: .acquiringAndReleasing)
      guard previous == Phase.subscribed.rawValue else { return }
      let upstream = self.upstream.take()
      upstream.cancel()
    }
  }
}

extension Publisher {
  /// Attaches a subscriber that calls `receiveValue` for every value and `receiveCompletion` at
  /// the end; keep the returned cancellable for as long as values should arrive.
  ///
  /// ```swift
  /// let cancellable = (1...3).publisher
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  @inlinable
  public func sink(
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
    receiveValue: @escaping (Output) -> Void
  ) -> AnyCancellable {
    let sink = Subscribers.Sink<Output, Failure>(
      receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    subscribe(sink)
    return AnyCancellable(wrapping: sink)
  }
}

extension Publisher where Failure == Never {
  /// Attaches a subscriber that calls `receiveValue` for every value of a publisher that cannot
  /// fail.
  @inlinable
  public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
    sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
  }
}
