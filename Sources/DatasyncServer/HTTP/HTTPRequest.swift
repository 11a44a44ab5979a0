/// A complete HTTP/1.x request as received by an ``HTTPServer``: request line, headers and the
/// whole body (a chunked body arrives de-chunked).
///
/// The target is available raw (as sent) and decoded: ``path`` is the percent-decoded path
/// (valid UTF-8; a request whose path does not decode is answered 400 before any handler runs),
/// ``queryItems`` the decoded query parameters.
///
/// ```swift
/// // GET /rooms/caf%C3%A9.json?print=pretty&orderBy=%22%24key%22 HTTP/1.1
/// request.rawPath          // "/rooms/caf%C3%A9.json"
/// request.path             // "/rooms/café.json"
/// request.query("orderBy") // "\"$key\""
/// ```
public struct HTTPRequest: Sendable {
  /// The method as sent (methods are case-sensitive: `GET`, `PUT`, ...).
  public let method: String
  /// The request target exactly as sent on the request line (for example `/a%20b?x=1`).
  public let target: String
  /// The path part of the target, still percent-encoded (`/` for an asterisk or empty target).
  public let rawPath: String
  /// The path part of the target, percent-decoded.
  public let path: String
  /// The query part of the target after `?`, still encoded; nil when the target has no `?`.
  public let rawQuery: String?
  /// The decoded query parameters, in order.
  public let queryItems: [HTTPQueryItem]
  /// The protocol version of the request line: `HTTP/1.0` or `HTTP/1.1`.
  public let version: String
  /// The header fields, in the order received.
  public let headers: HTTPHeaders
  /// The body (empty when the request has none).
  public let body: [UInt8]
  /// The numeric address of the peer, for example `127.0.0.1`.
  public let remoteAddress: String

  /// Creates a request; the server builds these from the bytes it receives.
  public init(
    method: String, target: String, rawPath: String, path: String, rawQuery: String?,
    queryItems: [HTTPQueryItem], version: String, headers: HTTPHeaders, body: [UInt8],
    remoteAddress: String
  ) {
    self.method = method
    self.target = target
    self.rawPath = rawPath
    self.path = path
    self.rawQuery = rawQuery
    self.queryItems = queryItems
    self.version = version
    self.headers = headers
    self.body = body
    self.remoteAddress = remoteAddress
  }

  /// The value of the first query parameter named `name` (decoded), nil when absent.
  public func query(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }

  /// The body decoded as UTF-8 (invalid sequences replaced by U+FFFD).
  public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
