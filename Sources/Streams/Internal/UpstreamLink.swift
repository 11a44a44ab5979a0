/// The subscriber a stateful operator attaches to one of its upstreams: it hands the upstream's
/// events, tagged with the upstream's `id`, to the operator's subscription (its owner).
///
/// `Route` says which of the owner's methods take the events, so one link type serves the main
/// upstreams (``UpstreamOwner``), upstreams whose values the owner keeps type-erased, and the
/// secondary publishers (``SecondaryUpstreamOwner``). A main upstream's demand goes through
/// explicit requests (`receive(_:)` returns `.none`); a secondary owner returns the demand a value
/// earns.
@usableFromInline
internal struct UpstreamLink<Route: UpstreamRoute>: Subscriber {
  @usableFromInline
  typealias Input = Route.Input
  @usableFromInline
  typealias Failure = Route.Failure

  @usableFromInline
  let owner: Route.Owner
  @usableFromInline
  let id: Int
  @usableFromInline
  let combineIdentifier = CombineIdentifier()

  @inlinable
  init(owner: Route.Owner, id: Int) {
    self.owner = owner
    self.id = id
  }

  @inlinable
  func receive(subscription: any Subscription) {
    Route.subscribed(owner, id, subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    Route.received(owner, id, input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    Route.completed(owner, id, completion)
  }
}

/// Which methods of its owner an ``UpstreamLink`` calls.
@usableFromInline
internal protocol UpstreamRoute {
  associatedtype Owner: AnyObject
  associatedtype Input
  associatedtype Failure: Error
  static func subscribed(_ owner: Owner, _ id: Int, _ subscription: any Subscription)
  static func received(_ owner: Owner, _ id: Int, _ input: Input) -> Subscribers.Demand
  static func completed(_ owner: Owner, _ id: Int, _ completion: Subscribers.Completion<Failure>)
}

/// A stateful operator's subscription as seen by the links to its main upstreams.
@usableFromInline
internal protocol UpstreamOwner: AnyObject {
  associatedtype UpstreamOutput
  associatedtype UpstreamFailure: Error
  func upstream(_ id: Int, didSubscribe subscription: any Subscription)
  func upstream(_ id: Int, didSend value: UpstreamOutput)
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<UpstreamFailure>)
}

/// A stateful operator's subscription as seen by the links to its secondary publishers: the
/// inner publishers of `flatMap` and `switchToLatest`, the other publisher of `withLatestFrom`,
/// `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)`.
@usableFromInline
internal protocol SecondaryUpstreamOwner: AnyObject {
  associatedtype SecondaryOutput
  associatedtype SecondaryFailure: Error
  func secondary(_ id: Int, didSubscribe subscription: any Subscription)
  func secondary(_ id: Int, didSend value: SecondaryOutput) -> Subscribers.Demand
  func secondary(_ id: Int, didComplete completion: Subscribers.Completion<SecondaryFailure>)
}

/// A route to an ``UpstreamOwner``'s `upstream` methods; such routes differ only in the type of
/// the values they hand over.
@usableFromInline
internal protocol MainUpstreamRoute: UpstreamRoute
where Owner: UpstreamOwner, Failure == Owner.UpstreamFailure {}

extension MainUpstreamRoute {
  @inlinable
  static func subscribed(_ owner: Owner, _ id: Int, _ subscription: any Subscription) {
    owner.upstream(id, didSubscribe: subscription)
  }

  @inlinable
  static func completed(
    _ owner: Owner, _ id: Int, _ completion: Subscribers.Completion<Owner.UpstreamFailure>
  ) {
    owner.upstream(id, didComplete: completion)
  }
}

/// The route to an ``UpstreamOwner``'s `upstream` methods.
@usableFromInline
internal enum MainRoute<Owner: UpstreamOwner>: MainUpstreamRoute {
  @usableFromInline
  typealias Failure = Owner.UpstreamFailure

  @inlinable
  static func received(_ owner: Owner, _ id: Int, _ input: Owner.UpstreamOutput)
    -> Subscribers.Demand
  {
    owner.upstream(id, didSend: input)
    return .none
  }
}

/// The route to an ``UpstreamOwner`` that keeps values of upstreams of different output types
/// type-erased (combineLatest, zip).
@usableFromInline
internal enum ErasedRoute<Owner: UpstreamOwner, Input>: MainUpstreamRoute
where Owner.UpstreamOutput == Any {
  @usableFromInline
  typealias Failure = Owner.UpstreamFailure

  @inlinable
  static func received(_ owner: Owner, _ id: Int, _ input: Input) -> Subscribers.Demand {
    owner.upstream(id, didSend: input as Any)
    return .none
  }
}

/// The route to a ``SecondaryUpstreamOwner``'s `secondary` methods.
@usableFromInline
internal enum SecondaryRoute<Owner: SecondaryUpstreamOwner>: UpstreamRoute {
  @inlinable
  static func subscribed(_ owner: Owner, _ id: Int, _ subscription: any Subscription) {
    owner.secondary(id, didSubscribe: subscription)
  }

  @inlinable
  static func received(_ owner: Owner, _ id: Int, _ input: Owner.SecondaryOutput)
    -> Subscribers.Demand
  {
    owner.secondary(id, didSend: input)
  }

  @inlinable
  static func completed(
    _ owner: Owner, _ id: Int, _ completion: Subscribers.Completion<Owner.SecondaryFailure>
  ) {
    owner.secondary(id, didComplete: completion)
  }
}

extension UpstreamOwner {
  /// The subscriber to attach to main upstream `id`.
  @inlinable
  func link(_ id: Int) -> UpstreamLink<MainRoute<Self>> {
    UpstreamLink(owner: self, id: id)
  }

  /// The subscriber to attach to upstream `id`, whose values of type `Input` the owner keeps
  /// type-erased.
  @inlinable
  func erasedLink<Input>(_ id: Int, of _: Input.Type) -> UpstreamLink<ErasedRoute<Self, Input>>
  where UpstreamOutput == Any {
    UpstreamLink(owner: self, id: id)
  }

  /// Subscribes to `publisher` as upstream `id`, whose values the owner keeps type-erased.
  @inlinable
  func attach<P: Publisher>(_ publisher: P, id: Int)
  where UpstreamOutput == Any, P.Failure == UpstreamFailure {
    publisher.receive(subscriber: erasedLink(id, of: P.Output.self))
  }
}

extension SecondaryUpstreamOwner {
  /// The subscriber to attach to secondary publisher `id`.
  @inlinable
  func secondaryLink(_ id: Int) -> UpstreamLink<SecondaryRoute<Self>> {
    UpstreamLink(owner: self, id: id)
  }
}
