import Foundation

/// Writes response heads and bodies in HTTP/1.1 wire format.
enum ResponseEncoding {
  /// `HTTP/1.1 100 Continue`, sent before the body of a request that expects it.
  static let continueHead = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

  /// The terminating chunk of a chunked body.
  static let lastChunk = Array("0\r\n\r\n".utf8)

  /// How the connection is declared after a response.
  enum ConnectionHeader {
    /// No `Connection` header (HTTP/1.1 keeps the connection).
    case none
    /// `Connection: keep-alive` (an HTTP/1.0 request that asked for it).
    case keepAlive
    /// `Connection: close`.
    case close
  }

  /// Why a handler's response cannot be sent, naming the culprit; nil when it is well formed.
  static func problem(with response: HTTPResponse) -> String? {
    let status = response.status
    guard (200...999).contains(status.code) else {
      return "the handler answered with the status \(status.code), not a final status (200-999)"
    }
    guard status.reasonPhrase.utf8.allSatisfy(isFieldValueByte) else {
      return "the reason phrase of the status \(status.code) contains a control character"
    }
    for (name, value) in response.headers {
      guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
        return "the response header name \"\(name.debugDescription.dropFirst().dropLast())\" "
          + "is not a token"
      }
      guard value.utf8.allSatisfy(isFieldValueByte) else {
        return "the value of the response header \(name) contains CR, LF or another control "
          + "character"
      }
    }
    return nil
  }

  /// Whether the `Connection` header lists `close`.
  static func asksToClose(_ headers: HTTPHeaders) -> Bool {
    headers.values(for: "Connection").contains { value in
      value.split(separator: ",").contains {
        $0.trimmingCharacters(in: [" ", "\t"]).lowercased() == "close"
      }
    }
  }

  /// Whether a response with this status carries no body (and no `Content-Length`).
  static func hasNoBody(_ status: HTTPStatus) -> Bool {
    status.code == 204 || status.code == 304 || status.code < 200
  }

  /// Appends the head and (unless `omitBody`) the body of a well-formed response to `output`.
  static func encode(
    _ response: HTTPResponse, connection: ConnectionHeader, omitBody: Bool,
    into output: inout ByteQueue
  ) {
    let noBody = hasNoBody(response.status)
    var head = statusLine(response.status)
    appendFields(response.headers, to: &head)
    if !noBody { head += "Content-Length: \(response.body.count)\r\n" }
    head += connectionLine(connection) + "\r\n"
    output.append(head.utf8)
    if !noBody && !omitBody { output.append(response.body) }
  }

  /// The head of an event-stream response: `text/event-stream`, not cached, chunked for
  /// HTTP/1.1 (delimited by the end of the connection for HTTP/1.0), and the connection ends
  /// with the stream.
  static func eventStreamHead(extraHeaders: HTTPHeaders, chunked: Bool) -> [UInt8] {
    var head = statusLine(.ok)
    var headers = extraHeaders
    if !headers.contains("Content-Type") { headers["Content-Type"] = "text/event-stream" }
    if !headers.contains("Cache-Control") { headers["Cache-Control"] = "no-cache" }
    appendFields(headers, to: &head)
    if chunked { head += "Transfer-Encoding: chunked\r\n" }
    head += connectionLine(.close) + "\r\n"
    return Array(head.utf8)
  }

  private static func statusLine(_ status: HTTPStatus) -> String {
    "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
  }

  /// Appends the fields, without those the server sets itself.
  private static func appendFields(_ headers: HTTPHeaders, to head: inout String) {
    for (name, value) in headers {
      if HTTPHeaders.name(name, matches: "Content-Length")
        || HTTPHeaders.name(name, matches: "Transfer-Encoding")
        || HTTPHeaders.name(name, matches: "Connection")
      {
        continue
      }
      head += name + ": " + value + "\r\n"
    }
  }

  private static func connectionLine(_ connection: ConnectionHeader) -> String {
    switch connection {
    case .none: ""
    case .keepAlive: "Connection: keep-alive\r\n"
    case .close: "Connection: close\r\n"
    }
  }

  /// A byte allowed in a field value or reason phrase: tab, visible ASCII, space, non-ASCII.
  private static func isFieldValueByte(_ byte: UInt8) -> Bool {
    byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
  }

  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }
}
