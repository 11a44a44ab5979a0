/// Work a subscription does after unlocking: upstream cancels and requests, then other actions.
///
/// A subscription collects its calls out while it holds its lock and performs them once it let
/// go, so that no upstream, downstream or user code ever runs under the lock.
@usableFromInline
package struct DeferredEffects {
  @usableFromInline
  var requests: [(any Subscription, Subscribers.Demand)]
  @usableFromInline
  var cancels: [any Subscription]
  @usableFromInline
  var actions: [() -> Void]

  // Assigned here rather than by property initialisers, which are not inlinable: the empty
  // effects of every delivered value would otherwise cost three calls.
  @inlinable
  package init() {
    requests = []
    cancels = []
    actions = []
  }

  @inlinable
  var isEmpty: Bool { requests.isEmpty && cancels.isEmpty && actions.isEmpty }

  /// Asks `subscription` for `demand` values; nothing when `demand` is `.none`.
  @inlinable
  mutating func request(_ demand: Subscribers.Demand, from subscription: any Subscription) {
    if demand > 0 { requests.append((subscription, demand)) }
  }

  /// Cancels `subscription`, if there is one.
  @inlinable
  mutating func cancel(_ subscription: (any Subscription)?) {
    if let subscription { cancels.append(subscription) }
  }

  /// Cancels every subscription of `subscriptions`.
  @inlinable
  mutating func cancel(_ subscriptions: [any Subscription]) {
    cancels.append(contentsOf: subscriptions)
  }

  @inlinable
  mutating func run(_ action: @escaping () -> Void) {
    actions.append(action)
  }

  /// Keeps `value` alive until the work is performed, so that it is released without the lock.
  @inlinable
  mutating func release<Value>(_ value: Value?) {
    guard let value else { return }
    actions.append { withExtendedLifetime(value) {} }
  }

  /// Keeps `values` alive until the work is performed, so that they are released without the
  /// lock.
  @inlinable
  mutating func release<Value>(_ values: [Value]) {
    guard !values.isEmpty else { return }
    actions.append { withExtendedLifetime(values) {} }
  }

  /// Performs the work, in the order: cancels, requests, actions. Called without a lock held.
  @inlinable
  package func perform() {
    for subscription in cancels { subscription.cancel() }
    for (subscription, demand) in requests { subscription.request(demand) }
    for action in actions { action() }
  }
}
