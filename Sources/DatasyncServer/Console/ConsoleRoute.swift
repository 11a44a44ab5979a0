/// Serves the data console (``ConsolePage``) at `/` and `/console`, and hands every other
/// request to the handler behind it (the REST handler: `/.json` still means the data at the
/// root).
///
/// `GET` and `HEAD` get the page; another method on those paths gets 405. The page is a
/// constant, answered from the loop thread.
struct ConsoleRoute: HTTPHandler {
  /// The paths the page is served at.
  static let paths: Set<String> = ["/", "/console", "/console/"]

  /// The handler of every other request.
  let next: any HTTPHandler
  /// Where a line per request goes, as for the REST handler (nil: no log).
  let log: (@Sendable (String) -> Void)?

  func handle(_ request: HTTPRequest, responder: HTTPResponder) {
    guard Self.paths.contains(request.path) else {
      next.handle(request, responder: responder)
      return
    }
    var answer: HTTPResponse
    switch request.method {
    case "GET", "HEAD":
      answer = ConsolePage.response
    default:
      answer = HTTPResponse.jsonError(
        .methodNotAllowed,
        message: "\(request.path) is the data console: only GET and HEAD are accepted")
      answer.headers["Allow"] = "GET, HEAD"
    }
    responder.respond(answer)
    log?(
      "\(request.remoteAddress) \"\(request.method) \(RESTHandler.redacted(request))\" "
        + "\(answer.status.code)")
  }
}
