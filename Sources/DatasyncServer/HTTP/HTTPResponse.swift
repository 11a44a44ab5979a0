/// A plain (non-streaming) HTTP response: status, headers and a complete body.
///
/// The server always sends `Content-Length` (computed from ``body``; any `Content-Length` or
/// `Transfer-Encoding` given here is replaced) except for 1xx, 204 and 304 statuses, which carry
/// no body. It adds `Connection: close` when the connection ends after this response; a response
/// that sets `Connection: close` itself ends its connection. The body of an answer to `HEAD` is
/// not sent (its length is).
///
/// A header name must be a token and a value must not contain CR, LF or NUL: the server answers
/// 500 instead of a response that breaks this, naming the header.
public struct HTTPResponse: Sendable {
  /// The status.
  public var status: HTTPStatus
  /// The header fields to send.
  public var headers: HTTPHeaders
  /// The body bytes.
  public var body: [UInt8]

  /// Creates a response with a byte body.
  public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Creates a response whose body is `text` in UTF-8.
  public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body text: String) {
    self.init(status: status, headers: headers, body: Array(text.utf8))
  }

  /// A response carrying `{"error": message}` as JSON, the shape the REST protocol uses for
  /// errors; the server uses it for the errors it answers itself (400, 408, 413, 431, ...).
  public static func jsonError(_ status: HTTPStatus, message: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/json; charset=utf-8"],
      body: "{\"error\":\(JSONStringLiteral.quoted(message))}")
  }
}
