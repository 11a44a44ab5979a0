extension Publisher {
  /// Calls the given closures when the corresponding events happen, then passes the events on
  /// unchanged.
  ///
  /// `receiveSubscription`, `receiveOutput` and `receiveCompletion` run on the upstream's thread
  /// before the event is forwarded; `receiveRequest` and `receiveCancel` run on the caller's thread
  /// before the request or cancel is forwarded upstream; as with Combine, `receiveRequest` is also
  /// called with the demand the downstream returns from receiving a value (when above zero).
  /// `receiveCancel` runs once, on the first cancel of a live subscription. Values take no lock.
  ///
  /// ```swift
  /// let cancellable = (1...2).publisher
  ///   .handleEvents(receiveOutput: { print("saw", $0) })
  ///   .sink { _ in }
  /// ```
  @inlinable
  public consuming func handleEvents(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveOutput: ((Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil,
    receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    Publishers.HandleEvents(
      upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
      receiveRequest: receiveRequest)
  }
}

extension Publishers {
  /// A publisher that calls closures on its events and passes them on unchanged.
  public struct HandleEvents<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose events are observed.
    public let upstream: Upstream
    /// Called with the upstream's subscription.
    public var receiveSubscription: ((any Subscription) -> Void)?
    /// Called with every value.
    public var receiveOutput: ((Upstream.Output) -> Void)?
    /// Called with the completion.
    public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
    /// Called on the first cancel of a live subscription.
    public var receiveCancel: (() -> Void)?
    /// Called with every demand the downstream requests or returns from a value.
    public var receiveRequest: ((Subscribers.Demand) -> Void)?

    /// Creates a `HandleEvents` publisher from its upstream and parameters.
    @inlinable
    public init(
      upstream: Upstream,
      receiveSubscription: ((any Subscription) -> Void)? = nil,
      receiveOutput: ((Upstream.Output) -> Void)? = nil,
      receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)? = nil,
      receiveCancel: (() -> Void)? = nil,
      receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
      self.receiveCancel = receiveCancel
      self.receiveRequest = receiveRequest
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let hooks = EventHooks<Output, Failure>(
        subscription: receiveSubscription, output: receiveOutput,
        completion: receiveCompletion, cancel: receiveCancel, request: receiveRequest,
        returnedDemand: receiveRequest)
      upstream.receive(
        subscriber: ObservingSubscriber(downstream: subscriber, hooks: hooks, name: "HandleEvents"))
    }
  }
}
