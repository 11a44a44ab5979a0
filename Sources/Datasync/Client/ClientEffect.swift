/// What the client must do after a change of its ``ClientStateMachine``, in order.
///
/// The first three only enqueue work (on a subscriber's queue, on the connection) and never run
/// code of the application: ``DatasyncClient`` performs them inside its critical section, so that
/// their order across threads is the order of the state changes. The others may run code of the
/// application and are performed after unlocking.
enum ClientEffect: Sendable {
  /// Enqueue these events, in order, on the queue of a subscription.
  case deliver([EventRecord], to: SubscriptionIdentifier)
  /// Send a request to the back end.
  case send(ClientRequest)
  /// Connect to the back end (true) or disconnect (false).
  case connect(Bool)
  /// Answer a request: the written value for writes, the value for reads.
  case answer(RequestIdentifier, WebcomResult<JSONValue>)
  /// Answer an authentication request: the identity, nil after a sign-out.
  case answerAuthentication(RequestIdentifier, WebcomResult<DatasyncAuthentication?>)
  /// Tell the state observers about a new connection state.
  case changeState(DatasyncState)
  /// Tell the authentication observers about a new identity (nil: unauthenticated).
  case changeAuthentication(DatasyncAuthentication?)
  /// End these subscriptions, which the back end stopped serving, in order.
  case revoke([SubscriptionIdentifier], WebcomError)

  /// Whether the effect only enqueues work (see the type's documentation).
  var onlyEnqueues: Bool {
    switch self {
    case .deliver, .send, .connect: true
    case .answer, .answerAuthentication, .changeState, .changeAuthentication, .revoke: false
    }
  }
}
