/// The one interface between a client (``DatasyncService``) and a back end.
///
/// A connection delivers the client's requests to the back end in order and the back end's
/// messages to the client in order, asynchronously: neither side is ever called back from inside
/// ``send(_:)``; the client calls ``flush()`` once it has released its own lock. The embedded back end implements it in-process; a remote back end implements it
/// over the network.
protocol BackEndConnection: AnyObject, Sendable {
  /// Starts the connection; every message of the back end is passed to `receiver`, in order, in
  /// batches of one or more (the messages that arrived together, which the client handles under
  /// one lock, waking its queues once), one batch at a time.
  func open(receiver: @escaping @Sendable ([BackEndMessage]) -> Void)
  /// Queues a request for the back end; never blocks and never calls back synchronously.
  func send(_ request: ClientRequest)
  /// Lets the requests queued so far travel; called by the client with no lock held, after the
  /// operation that sent them. It may deliver messages to the receiver before returning.
  func flush()
  /// Connects (true) or disconnects (false); the back end runs its disconnection writes when this
  /// client disconnects.
  func setConnected(_ connected: Bool)
  /// Ends the connection for good, as a disconnection.
  func close()
  /// Why this connection can never reach its back end (an invalid configuration, such as a URL
  /// it cannot use), nil when it can.
  var configurationError: WebcomError? { get }
}

extension BackEndConnection {
  var configurationError: WebcomError? { nil }

  /// Nothing to do for a connection whose ``send(_:)`` already makes the request travel.
  func flush() {}
}
