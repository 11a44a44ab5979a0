/// An HTTP response status: its code and the reason phrase sent on the status line.
///
/// The common statuses are static members (`.ok`, `.notFound`, ...); ``init(code:)`` gives the
/// standard reason phrase of any other registered code.
public struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
  /// The three-digit status code.
  public let code: Int
  /// The reason phrase of the status line, for example `Not Found`.
  public let reasonPhrase: String

  /// Creates a status with an explicit reason phrase.
  ///
  /// - Parameters:
  ///   - code: A code from 100 to 999; the server answers 500 for a response outside that range.
  ///   - reasonPhrase: The phrase of the status line; it must not contain CR or LF.
  public init(code: Int, reasonPhrase: String) {
    self.code = code
    self.reasonPhrase = reasonPhrase
  }

  /// Creates a status with the standard reason phrase of `code` (`Status <code>` when the code
  /// is not one this type names).
  public init(code: Int) {
    self.init(code: code, reasonPhrase: Self.standardPhrases[code] ?? "Status \(code)")
  }

  /// `200 OK`.
  public static let ok = HTTPStatus(code: 200)
  /// `204 No Content`.
  public static let noContent = HTTPStatus(code: 204)
  /// `304 Not Modified`.
  public static let notModified = HTTPStatus(code: 304)
  /// `400 Bad Request`.
  public static let badRequest = HTTPStatus(code: 400)
  /// `401 Unauthorized`.
  public static let unauthorized = HTTPStatus(code: 401)
  /// `403 Forbidden`.
  public static let forbidden = HTTPStatus(code: 403)
  /// `404 Not Found`.
  public static let notFound = HTTPStatus(code: 404)
  /// `405 Method Not Allowed`.
  public static let methodNotAllowed = HTTPStatus(code: 405)
  /// `408 Request Timeout`.
  public static let requestTimeout = HTTPStatus(code: 408)
  /// `412 Precondition Failed`.
  public static let preconditionFailed = HTTPStatus(code: 412)
  /// `413 Content Too Large`.
  public static let contentTooLarge = HTTPStatus(code: 413)
  /// `414 URI Too Long`.
  public static let uriTooLong = HTTPStatus(code: 414)
  /// `417 Expectation Failed`.
  public static let expectationFailed = HTTPStatus(code: 417)
  /// `431 Request Header Fields Too Large`.
  public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
  /// `500 Internal Server Error`.
  public static let internalServerError = HTTPStatus(code: 500)
  /// `501 Not Implemented`.
  public static let notImplemented = HTTPStatus(code: 501)
  /// `503 Service Unavailable`.
  public static let serviceUnavailable = HTTPStatus(code: 503)
  /// `505 HTTP Version Not Supported`.
  public static let httpVersionNotSupported = HTTPStatus(code: 505)

  /// The code and the phrase, for example `404 Not Found`.
  public var description: String { "\(code) \(reasonPhrase)" }

  private static let standardPhrases: [Int: String] = [
    100: "Continue", 101: "Switching Protocols",
    200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
    301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
    307: "Temporary Redirect", 308: "Permanent Redirect",
    400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
    405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict",
    410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
    414: "URI Too Long", 415: "Unsupported Media Type", 417: "Expectation Failed",
    422: "Unprocessable Content", 429: "Too Many Requests",
    431: "Request Header Fields Too Large",
    500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
    503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
  ]
}
