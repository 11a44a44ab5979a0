extension Subscribers {
  /// A subscriber that writes every value to a property of an object.
  ///
  /// The object is retained until completion or cancel.
  public final class Assign<Root, Input>: Subscriber, Cancellable, @unchecked Sendable,
    CustomStringConvertible
  {
    public typealias Failure = Never

    /// The property written to.
    public let keyPath: ReferenceWritableKeyPath<Root, Input>
    @usableFromInline internal let lock = StreamsLock()
    // Protected by `lock`: whether it completed or was cancelled, the upstream and the object
    // (nil after completion or cancel).
    // They are `@exclusivity(unchecked)`: the lock already makes each access exclusive, and the
    // runtime check would cost two calls per access in the code inlined into client modules.
    @exclusivity(unchecked) @usableFromInline internal var isTerminated = false
    @exclusivity(unchecked) @usableFromInline internal var upstream: (any Subscription)?
    @exclusivity(unchecked) @usableFromInline internal var root: Root?

    /// An assigning subscriber for `object[keyPath: keyPath]`.
    @inlinable
    public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
      root = object
      self.keyPath = keyPath
    }

    /// The object written to, until completion or cancel.
    public var object: Root? {
      lock.lock()
      defer { lock.unlock() }
      return root
    }

    public var description: String { "Assign \(Root.self)" }

    @inlinable
    public func receive(subscription: any Subscription) {
      lock.lock()
      guard !isTerminated, upstream == nil else {
        lock.unlock()
        subscription.cancel()
        return
      }
      upstream = subscription
      lock.unlock()
      subscription.request(.unlimited)
    }

    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
      lock.lock()
      let root = self.root
      lock.unlock()
      root?[keyPath: keyPath] = value
      return .none
    }

    @inlinable
    public func receive(completion: Subscribers.Completion<Never>) {
      lock.lock()
      let root = self.root
      self.root = nil
      upstream = nil
      isTerminated = true
      lock.unlock()
      withExtendedLifetime(root) {}
    }

    @inlinable
    public func cancel() {
      lock.lock()
      let root = self.root
      let upstream = self.upstream
      self.root = nil
      self.upstream = nil
      isTerminated = true
      lock.unlock()
      upstream?.cancel()
      withExtendedLifetime(root) {}
    }
  }
}

extension Publisher where Failure == Never {
  /// Writes every value to `object[keyPath: keyPath]`; keep the returned cancellable.
  ///
  /// ```swift
  /// let cancellable = subject.assign(to: \.title, on: viewModel)
  /// ```
  @inlinable
  public func assign<Root>(
    to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
  ) -> AnyCancellable {
    let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
    subscribe(subscriber)
    return AnyCancellable(subscriber)
  }
}
