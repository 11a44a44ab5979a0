/// The closures an ``ObservingSubscriber`` calls on each event.
@usableFromInline
internal struct EventHooks<Output, Failure: Error> {
  @usableFromInline let subscription: ((any Subscription) -> Void)?
  @usableFromInline let output: ((Output) -> Void)?
  @usableFromInline let completion: ((Subscribers.Completion<Failure>) -> Void)?
  @usableFromInline let cancel: (() -> Void)?
  @usableFromInline let request: ((Subscribers.Demand) -> Void)?
  @usableFromInline let returnedDemand: ((Subscribers.Demand) -> Void)?

  @inlinable
  init(
    subscription: ((any Subscription) -> Void)?, output: ((Output) -> Void)?,
    completion: ((Subscribers.Completion<Failure>) -> Void)?, cancel: (() -> Void)?,
    request: ((Subscribers.Demand) -> Void)?, returnedDemand: ((Subscribers.Demand) -> Void)?
  ) {
    self.subscription = subscription
    self.output = output
    self.completion = completion
    self.cancel = cancel
    self.request = request
    self.returnedDemand = returnedDemand
  }
}

/// The subscriber and subscription of `handleEvents` and `print`: it reports every event to its
/// hooks and passes it on unchanged.
///
/// Values take no lock; the lock guards only the upstream subscription, so that a cancel is
/// reported and forwarded once. Hooks run with the lock released. Its downstream reaches
/// `request` and `cancel` through the handlers of ``HandlerSubscription``, specialised where the
/// chain is built.
@usableFromInline
internal final class ObservingSubscriber<Downstream: Subscriber>: LockingHandlerSubscription,
  Subscriber
{
  @usableFromInline typealias Input = Downstream.Input
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline let downstream: Downstream
  @usableFromInline let hooks: EventHooks<Downstream.Input, Downstream.Failure>
  // Protected by `lock`: the upstream subscription, held (`holdsUpstream`) from its arrival until
  // the end, and whether one arrived. They are `@exclusivity(unchecked)`: the lock already makes
  // each access exclusive, and the runtime check costs two calls per access in the unspecialised
  // code that runs when upstreams call through `any Subscription`.
  @exclusivity(unchecked) @usableFromInline var upstream = HeldSubscription()
  @exclusivity(unchecked) @usableFromInline var holdsUpstream = false
  @exclusivity(unchecked) @usableFromInline var hasSubscription = false

  /// The operator served: `"HandleEvents"`, `"Print"` or `"Breakpoint"`.
  @usableFromInline let name: StaticString

  @usableFromInline
  override var operatorName: String { name.description }

  @inlinable
  init(
    downstream: Downstream, hooks: EventHooks<Downstream.Input, Downstream.Failure>,
    name: StaticString
  ) {
    self.name = name
    self.downstream = downstream
    self.hooks = hooks
    super.init(
      request: { subscription, demand in
        unsafeDowncast(subscription, to: ObservingSubscriber.self).forward(demand)
      },
      cancel: { subscription in
        unsafeDowncast(subscription, to: ObservingSubscriber.self).stop()
      })
  }

  @inlinable
  func receive(subscription: any Subscription) {
    lock()
    guard !hasSubscription else {
      unlock()
      subscription.cancel()
      return
    }
    hasSubscription = true
    holdsUpstream = true
    upstream.hold(subscription)
    unlock()
    hooks.subscription?(subscription)
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    hooks.output?(input)
    let demand = downstream.receive(input)
    if demand > 0 {
      hooks.returnedDemand?(demand)
    }
    return demand
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    lock()
    holdsUpstream = false
    let previous = upstream.take()
    unlock()
    withExtendedLifetime(previous) {}
    hooks.completion?(completion)
    downstream.receive(completion: completion)
  }

  /// Reports the downstream's demand and passes it to the upstream.
  @inlinable
  func forward(_ demand: Subscribers.Demand) {
    lock()
    guard holdsUpstream else {
      unlock()
      return
    }
    let upstream = self.upstream.subscription
    unlock()
    hooks.request?(demand)
    upstream.request(demand)
  }

  /// Reports the downstream's cancel and cancels the upstream, once.
  @inlinable
  func stop() {
    lock()
    guard holdsUpstream else {
      unlock()
      return
    }
    holdsUpstream = false
    let upstream = self.upstream.take()
    unlock()
    hooks.cancel?()
    upstream.cancel()
  }
}
