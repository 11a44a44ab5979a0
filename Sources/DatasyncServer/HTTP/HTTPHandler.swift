/// What an ``HTTPServer`` calls for each complete request.
///
/// `handle` is called on the server's event-loop thread, one request of a connection at a time
/// (the next request of a keep-alive or pipelined connection waits until this one is answered;
/// answers go out in request order). It must return quickly: work that blocks or takes long
/// (a database read, parsing a large body) belongs on another queue, from which the handler
/// answers through the ``HTTPResponder`` — it is thread-safe and may be used from any thread.
///
/// ```swift
/// struct Hello: HTTPHandler {
///   func handle(_ request: HTTPRequest, responder: HTTPResponder) {
///     responder.respond(HTTPResponse(body: "hello \(request.path)"))
///   }
/// }
/// ```
public protocol HTTPHandler: Sendable {
  /// Handles one request: answer it once with ``HTTPResponder/respond(_:)`` or turn the
  /// connection into an event stream with ``HTTPResponder/openEventStream(headers:onClose:)``,
  /// now or later, from any thread.
  func handle(_ request: HTTPRequest, responder: HTTPResponder)
}
