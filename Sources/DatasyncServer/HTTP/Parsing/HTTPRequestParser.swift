import Foundation

/// An incremental HTTP/1.x request parser: a state machine fed the bytes of one connection,
/// returning one complete request at a time.
///
/// It accepts lines ending in CRLF or a bare LF, skips empty lines before a request line, reads
/// `Content-Length` and `Transfer-Encoding: chunked` bodies, and reports a malformed request as
/// a failure with the status to answer (400, 413, 414, 417, 431, 501, 505) and a message naming
/// the culprit; after a failure the connection must close. Unparsed bytes stay in the buffer, so
/// pipelined requests are parsed one after the other.
struct HTTPRequestParser {
  /// The limits that turn a request into an error.
  struct Limits {
    /// The largest request line plus header section, in bytes (beyond: 431, or 414 for a request
    /// line alone).
    var maxHeaderBytes: Int
    /// The most header fields (beyond: 431).
    var maxHeaderCount: Int
    /// The largest body, in bytes (beyond: 413).
    var maxBodyBytes: Int
  }

  /// What one call of ``parse(_:)`` found.
  enum Output {
    /// The buffer holds no complete request (yet).
    case needMoreData
    /// A request's head asks for `100 Continue` before its body, and no body byte has arrived.
    case continueExpected
    /// A complete request, and whether the connection stays open after its answer.
    case request(HTTPRequest, keepAlive: Bool)
    /// The input is not an acceptable request: answer `status` with `message`, then close.
    case failure(HTTPStatus, String)
  }

  enum State {
    /// Looking for the end of the head; offsets are relative to the first unparsed byte.
    case head(lineStart: Int, scanned: Int, lines: Int)
    case fixedBody(remaining: Int)
    case chunkSize
    case chunkData(remaining: Int)
    case chunkDataEnd
    case trailers(lineStart: Int, scanned: Int, lines: Int)
    case failed
  }

  /// The parsed head of the request whose body is being read.
  struct Head {
    var method: String
    var target: String
    var rawPath: String
    var path: String
    var rawQuery: String?
    var queryItems: [HTTPQueryItem]
    var version: String
    var headers: HTTPHeaders
    var keepAlive: Bool
  }

  static let lineFeed = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let maxChunkSizeLine = 1_024

  let limits: Limits
  let remoteAddress: String
  var state = State.head(lineStart: 0, scanned: 0, lines: 0)
  var head: Head?
  var body: [UInt8] = []

  init(limits: Limits, remoteAddress: String) {
    self.limits = limits
    self.remoteAddress = remoteAddress
  }

  /// Whether no byte of the next request has been parsed.
  var isIdle: Bool {
    if case .head(_, 0, 0) = state { return true }
    return false
  }

  /// Parses what `buffer` holds, consuming the bytes of a request it completes (or of a body it
  /// reads), and stops at the first complete request.
  mutating func parse(_ buffer: inout ByteQueue) -> Output {
    while true {
      let step: Output?
      switch state {
      case .head(let lineStart, let scanned, let lines):
        step = parseHead(&buffer, lineStart: lineStart, scanned: scanned, lines: lines)
      case .fixedBody(let remaining):
        step = readFixedBody(&buffer, remaining: remaining)
      case .chunkSize:
        step = parseChunkSize(&buffer)
      case .chunkData(let remaining):
        step = readChunkData(&buffer, remaining: remaining)
      case .chunkDataEnd:
        step = parseChunkDataEnd(&buffer)
      case .trailers(let lineStart, let scanned, let lines):
        step = parseTrailers(&buffer, lineStart: lineStart, scanned: scanned, lines: lines)
      case .failed:
        return .failure(.badRequest, "the connection already failed")
      }
      if let step {
        if case .failure = step { state = .failed }
        return step
      }
    }
  }

  // MARK: - Head

  private mutating func parseHead(
    _ buffer: inout ByteQueue, lineStart: Int, scanned: Int, lines: Int
  ) -> Output? {
    if scanned == 0 { skipEmptyLines(&buffer) }
    if buffer.isEmpty { return .needMoreData }
    let scan = buffer.withQueuedBytes {
      Self.findEndOfSection($0, lineStart: lineStart, scanned: scanned, lines: lines)
    }
    if (scan.end ?? scan.scanned) > limits.maxHeaderBytes {
      let requestLineEnd = buffer.withQueuedBytes {
        $0.prefix(limits.maxHeaderBytes + 1).firstIndex(of: Self.lineFeed)
      }
      if requestLineEnd == nil {
        return .failure(
          .uriTooLong, "the request line is longer than \(limits.maxHeaderBytes) bytes")
      }
    }
    guard let end = scan.end else {
      state = .head(lineStart: scan.lineStart, scanned: scan.scanned, lines: scan.lines)
      return headLimitFailure(bytes: scan.scanned, lines: scan.lines) ?? .needMoreData
    }
    if let failure = headLimitFailure(bytes: end, lines: scan.lines) { return failure }
    let parsed = buffer.withQueuedBytes { parseHeadLines(Array($0[..<end])) }
    buffer.consume(end)
    switch parsed {
    case .failure(let status, let message):
      return .failure(status, message)
    case .success(let parsedHead, let framing, let expectsContinue):
      head = parsedHead
      body = []
      switch framing {
      case .none:
        return complete()
      case .length(let length):
        body.reserveCapacity(min(length, 1 << 20))
        state = .fixedBody(remaining: length)
      case .chunked:
        state = .chunkSize
      }
      return expectsContinue && buffer.isEmpty ? .continueExpected : nil
    }
  }

  func headLimitFailure(bytes: Int, lines: Int) -> Output? {
    if bytes > limits.maxHeaderBytes {
      return .failure(
        .requestHeaderFieldsTooLarge,
        "the request head is larger than \(limits.maxHeaderBytes) bytes")
    }
    if lines > limits.maxHeaderCount + 1 {
      return .failure(
        .requestHeaderFieldsTooLarge, "the request has more than \(limits.maxHeaderCount) headers")
    }
    return nil
  }

  private func skipEmptyLines(_ buffer: inout ByteQueue) {
    let count = buffer.withQueuedBytes { bytes in
      bytes.prefix { $0 == Self.carriageReturn || $0 == Self.lineFeed }.count
    }
    if count > 0 { buffer.consume(count) }
  }

  /// Where a section of lines (a head or trailers) ends: after its first empty line.
  ///
  /// - Returns: The offset just past the empty line (nil when it has not arrived) and the scan
  ///   position to resume from; `lines` counts the non-empty lines seen.
  static func findEndOfSection(
    _ bytes: UnsafeBufferPointer<UInt8>, lineStart: Int, scanned: Int, lines: Int
  ) -> (end: Int?, lineStart: Int, scanned: Int, lines: Int) {
    var lineStart = lineStart
    var lines = lines
    var position = scanned
    while position < bytes.count {
      guard let newline = bytes[position...].firstIndex(of: lineFeed) else { break }
      let length = newline - lineStart
      if length == 0 || (length == 1 && bytes[lineStart] == carriageReturn) {
        return (newline + 1, lineStart, newline + 1, lines)
      }
      lines += 1
      lineStart = newline + 1
      position = newline + 1
    }
    return (nil, lineStart, bytes.count, lines)
  }

  enum BodyFraming {
    case none
    case length(Int)
    case chunked
  }

  enum HeadParse {
    case success(Head, BodyFraming, expectsContinue: Bool)
    case failure(HTTPStatus, String)
  }

  /// Parses the request line and the header lines of a complete head (its final empty line
  /// included).
  private func parseHeadLines(_ bytes: [UInt8]) -> HeadParse {
    var lines = bytes.split(separator: Self.lineFeed, omittingEmptySubsequences: false).map {
      $0.last == Self.carriageReturn ? $0.dropLast() : $0
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let requestLine = lines.first else {
      return .failure(.badRequest, "the request has no request line")
    }
    let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      return .failure(
        .badRequest,
        "the request line \(Self.quoted(requestLine)) is not \"METHOD TARGET HTTP/1.1\"")
    }
    guard !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenCharacter) else {
      return .failure(.badRequest, "the method \(Self.quoted(parts[0])) is not a token")
    }
    let version: String
    switch Self.parseVersion(parts[2]) {
    case .some((1, 0)): version = "HTTP/1.0"
    case .some((1, _)): version = "HTTP/1.1"
    case .some: return .failure(.httpVersionNotSupported, "only HTTP/1.0 and HTTP/1.1 are served")
    case .none:
      return .failure(.badRequest, "the protocol version \(Self.quoted(parts[2])) is malformed")
    }
    var headers = HTTPHeaders()
    for line in lines.dropFirst() {
      switch Self.parseField(line) {
      case .success(let field): headers.add(field.name, field.value)
      case .failure(let message): return .failure(.badRequest, message)
      }
    }
    let method = String(decoding: parts[0], as: UTF8.self)
    let target: Target
    switch Self.parseTarget(parts[1], method: method) {
    case .success(let parsed): target = parsed
    case .failure(let message): return .failure(.badRequest, message)
    }
    return interpret(
      Head(
        method: method, target: String(decoding: parts[1], as: UTF8.self),
        rawPath: target.rawPath, path: target.path, rawQuery: target.rawQuery,
        queryItems: target.queryItems, version: version, headers: headers, keepAlive: false))
  }

  /// Applies the headers that frame the body and the connection.
  private func interpret(_ parsed: Head) -> HeadParse {
    var head = parsed
    let headers = head.headers
    let isHTTP11 = head.version == "HTTP/1.1"
    let hosts = headers.values(for: "Host")
    if hosts.count > 1 || (isHTTP11 && hosts.isEmpty) {
      return .failure(.badRequest, "an HTTP/1.1 request needs exactly one Host header")
    }
    let connection = Self.tokens(headers.values(for: "Connection"))
    head.keepAlive =
      !connection.contains("close") && (isHTTP11 || connection.contains("keep-alive"))
    var expectsContinue = false
    if let expectation = headers["Expect"] {
      guard expectation.lowercased() == "100-continue" else {
        return .failure(.expectationFailed, "the expectation \"\(expectation)\" is not supported")
      }
      expectsContinue = isHTTP11
    }
    let framing: BodyFraming
    let lengths = headers.values(for: "Content-Length")
    let encodings = headers.values(for: "Transfer-Encoding")
    if !encodings.isEmpty {
      guard lengths.isEmpty else {
        return .failure(
          .badRequest, "a request may not have both Transfer-Encoding and Content-Length")
      }
      guard isHTTP11 else {
        return .failure(.badRequest, "an HTTP/1.0 request may not use Transfer-Encoding")
      }
      guard Self.tokens(encodings) == ["chunked"] else {
        return .failure(
          .notImplemented,
          "the transfer encoding \"\(encodings.joined(separator: ", "))\" is not supported "
            + "(only chunked is)")
      }
      framing = .chunked
    } else if !lengths.isEmpty {
      let values = Set(
        lengths.flatMap { $0.split(separator: ",") }.map {
          $0.trimmingCharacters(in: [" ", "\t"])
        })
      guard values.count == 1, let value = values.first, (1...18).contains(value.count),
        value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let length = Int(value)
      else {
        return .failure(
          .badRequest,
          "the Content-Length \"\(lengths.joined(separator: ", "))\" is not one decimal number")
      }
      guard length <= limits.maxBodyBytes else {
        return .failure(
          .contentTooLarge,
          "the body of \(length) bytes is larger than the limit of \(limits.maxBodyBytes) bytes")
      }
      framing = length == 0 ? .none : .length(length)
    } else {
      framing = .none
    }
    if case .none = framing { expectsContinue = false }
    return .success(head, framing, expectsContinue: expectsContinue)
  }
}
