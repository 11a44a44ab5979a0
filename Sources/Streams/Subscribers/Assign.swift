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
    private let lock = StreamsLock()
    // Protected by `lock`: the object (nil after completion or cancel) and the upstream.
    private var root: Root?
    private var upstream: (any Subscription)?
    private var isTerminated = false

    /// An assigning subscriber for `object[keyPath: keyPath]`.
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

    public func receive(_ value: Input) -> Subscribers.Demand {
      lock.lock()
      let root = self.root
      lock.unlock()
      root?[keyPath: keyPath] = value
      return .none
    }

    public func receive(completion: Subscribers.Completion<Never>) {
      lock.lock()
      let root = self.root
      self.root = nil
      upstream = nil
      isTerminated = true
      lock.unlock()
      withExtendedLifetime(root) {}
    }

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
  public func assign<Root>(
    to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
  ) -> AnyCancellable {
    let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
    subscribe(subscriber)
    return AnyCancellable(subscriber)
  }
}
