extension HTTPRequestParser {
  // MARK: - Body

  mutating func readFixedBody(_ buffer: inout ByteQueue, remaining: Int) -> Output? {
    let taken = take(from: &buffer, upTo: remaining)
    guard taken == remaining else {
      state = .fixedBody(remaining: remaining - taken)
      return .needMoreData
    }
    return complete()
  }

  mutating func parseChunkSize(_ buffer: inout ByteQueue) -> Output? {
    let line: [UInt8]? = buffer.withQueuedBytes { bytes in
      guard let newline = bytes.firstIndex(of: Self.lineFeed) else { return nil }
      return Array(bytes[..<newline])
    }
    guard var line else {
      if buffer.count > Self.maxChunkSizeLine {
        return .failure(.badRequest, "a chunk size line is longer than 1024 bytes")
      }
      return .needMoreData
    }
    guard line.count <= Self.maxChunkSizeLine else {
      return .failure(.badRequest, "a chunk size line is longer than 1024 bytes")
    }
    buffer.consume(line.count + 1)
    if line.last == Self.carriageReturn { line.removeLast() }
    let digits = line.prefix { PercentDecoding.hexValue($0) != nil }
    let rest = line.dropFirst(digits.count).drop { $0 == 0x20 || $0 == 0x09 }
    guard (1...15).contains(digits.count), rest.isEmpty || rest.first == UInt8(ascii: ";"),
      let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
    else {
      return .failure(.badRequest, "the chunk size line \(Self.quoted(line[...])) is malformed")
    }
    if size == 0 {
      state = .trailers(lineStart: 0, scanned: 0, lines: 0)
      return nil
    }
    guard body.count + size <= limits.maxBodyBytes else {
      return .failure(
        .contentTooLarge,
        "the chunked body is larger than the limit of \(limits.maxBodyBytes) bytes")
    }
    state = .chunkData(remaining: size)
    return nil
  }

  mutating func readChunkData(_ buffer: inout ByteQueue, remaining: Int) -> Output? {
    let taken = take(from: &buffer, upTo: remaining)
    guard taken == remaining else {
      state = .chunkData(remaining: remaining - taken)
      return .needMoreData
    }
    state = .chunkDataEnd
    return nil
  }

  mutating func parseChunkDataEnd(_ buffer: inout ByteQueue) -> Output? {
    let end: Int? = buffer.withQueuedBytes { bytes in
      if bytes.first == Self.lineFeed { return 1 }
      if bytes.count >= 2 && bytes[0] == Self.carriageReturn && bytes[1] == Self.lineFeed {
        return 2
      }
      if bytes.isEmpty || (bytes.count == 1 && bytes[0] == Self.carriageReturn) { return 0 }
      return -1
    }
    switch end {
    case 0: return .needMoreData
    case let count? where count > 0:
      buffer.consume(count)
      state = .chunkSize
      return nil
    default:
      return .failure(.badRequest, "a chunk's data is not followed by a line end")
    }
  }

  mutating func parseTrailers(
    _ buffer: inout ByteQueue, lineStart: Int, scanned: Int, lines: Int
  ) -> Output? {
    let scan = buffer.withQueuedBytes {
      Self.findEndOfSection($0, lineStart: lineStart, scanned: scanned, lines: lines)
    }
    guard let end = scan.end else {
      state = .trailers(lineStart: scan.lineStart, scanned: scan.scanned, lines: scan.lines)
      return headLimitFailure(bytes: scan.scanned, lines: scan.lines) ?? .needMoreData
    }
    if let failure = headLimitFailure(bytes: end, lines: scan.lines) { return failure }
    let invalid = buffer.withQueuedBytes { bytes in
      Array(bytes[..<end]).split(separator: Self.lineFeed).lazy.map {
        $0.last == Self.carriageReturn ? $0.dropLast() : $0
      }.filter { !$0.isEmpty }.compactMap { line -> String? in
        if case .failure(let message) = Self.parseField(line) { return message }
        return nil
      }.first
    }
    buffer.consume(end)
    if let invalid { return .failure(.badRequest, invalid) }
    return complete()
  }

  /// Moves up to `count` bytes from `buffer` into the body; returns how many moved.
  private mutating func take(from buffer: inout ByteQueue, upTo count: Int) -> Int {
    let taken = buffer.withQueuedBytes { bytes in
      let taken = min(count, bytes.count)
      body.append(contentsOf: bytes[..<taken])
      return taken
    }
    if taken > 0 { buffer.consume(taken) }
    return taken
  }

  /// The request whose body is complete; the parser is ready for the next one.
  mutating func complete() -> Output {
    let head = head!
    let request = HTTPRequest(
      method: head.method, target: head.target, rawPath: head.rawPath, path: head.path,
      rawQuery: head.rawQuery, queryItems: head.queryItems, version: head.version,
      headers: head.headers, body: body, remoteAddress: remoteAddress)
    self.head = nil
    body = []
    state = .head(lineStart: 0, scanned: 0, lines: 0)
    return .request(request, keepAlive: head.keepAlive)
  }
}
