import Datasync
import Dispatch
import Foundation

/// The REST and streaming protocol of hosted realtime databases over the databases of a
/// ``NamespaceRegistry``: `GET`, `PUT`, `POST`, `PATCH` and `DELETE` on `/<path>.json`, and
/// Server-Sent Events streams for reads that accept `text/event-stream`.
///
/// Requests arrive on the server's loop thread and are answered from a concurrent queue, so
/// that reading, parsing and writing data never holds the loop.
final class RESTHandler: HTTPHandler {
  let namespaces: NamespaceRegistry
  let streams: StreamRegistry
  let sessions: SessionRegistry
  private let queue = DispatchQueue(label: "datasync.rest", attributes: .concurrent)
  private let log: (@Sendable (String) -> Void)?

  /// How many times a conditional write is tried again when a concurrent write changed the
  /// data between its check and its write (then the data has changed: 412).
  static let conditionalAttempts = 25

  init(
    namespaces: NamespaceRegistry, streams: StreamRegistry, sessions: SessionRegistry,
    log: (@Sendable (String) -> Void)?
  ) {
    self.namespaces = namespaces
    self.streams = streams
    self.sessions = sessions
    self.log = log
  }

  func handle(_ request: HTTPRequest, responder: HTTPResponder) {
    let started = DispatchTime.now()
    queue.async { [self] in
      let outcome = answer(request, responder: responder)
      guard let log else { return }
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
      let status =
        switch outcome {
        case .response(let status): "\(status.code)"
        case .stream: "200 stream"
        case .pending: "stream pending"
        }
      log(
        "\(request.remoteAddress) \"\(request.method) \(Self.redacted(request))\" \(status) "
          + String(format: "%.1f ms", elapsed))
    }
  }

  /// The request's target for the log, the value of its `auth` parameter (a credential)
  /// replaced by `***`.
  static func redacted(_ request: HTTPRequest) -> String {
    guard let query = request.rawQuery else { return request.target }
    let parameters = query.split(separator: "&", omittingEmptySubsequences: false).map {
      $0.hasPrefix("auth=") ? "auth=***" : String($0)
    }
    return request.rawPath + "?" + parameters.joined(separator: "&")
  }

  /// What became of a request, for the log.
  enum Outcome {
    /// Answered with this status.
    case response(HTTPStatus)
    /// Answered with an event stream.
    case stream
    /// The answer comes later (a stream waiting for its first data).
    case pending
  }

  private func answer(_ request: HTTPRequest, responder: HTTPResponder) -> Outcome {
    do throws(RESTError) {
      if request.path == Self.sessionPath {
        return try answerSession(request, responder: responder)
      }
      let rest = try RESTRequest(request)
      let database = try database(for: rest.namespace)
      if rest.isStreaming {
        try openStream(rest, on: database, responder: responder)
        return .pending
      }
      let response =
        switch rest.method {
        case .get: try read(rest, from: database)
        case .put: try put(rest, into: database)
        case .post: try push(rest, into: database)
        case .patch: try merge(rest, into: database)
        case .delete: try delete(rest, from: database)
        }
      responder.respond(response)
      return .response(response.status)
    } catch {
      responder.respond(error.response)
      return .response(error.status)
    }
  }

  /// The database of a namespace.
  ///
  /// - Throws: ``RESTError``: 503 beyond the maximum number of namespaces, 500 when its file
  ///   cannot be opened.
  func database(for namespace: Namespace?) throws(RESTError) -> DatasyncDatabase {
    do {
      return try namespaces.database(for: namespace)
    } catch {
      throw RESTError(
        error.code == .invalidArgument ? .serviceUnavailable : .internalServerError, error.message)
    }
  }

  /// A JSON answer shaped by `print` (`silent`: 204 without a body).
  static func json(
    _ bytes: @autoclosure () -> [UInt8], print: RESTQueryParameters.Print,
    headers: HTTPHeaders = [:]
  ) -> HTTPResponse {
    var headers = headers
    headers["Cache-Control"] = "no-cache"
    if case .silent = print { return HTTPResponse(status: .noContent, headers: headers) }
    headers["Content-Type"] = "application/json; charset=utf-8"
    return HTTPResponse(status: .ok, headers: headers, body: bytes())
  }
}
