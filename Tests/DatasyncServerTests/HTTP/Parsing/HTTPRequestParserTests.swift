import Datasync
import Testing

@testable import DatasyncServer

/// The request parser alone, fed from memory: whole, byte by byte, pipelined, and at its limits.
@Suite struct HTTPRequestParserTests {
  private static let limits = HTTPRequestParser.Limits(
    maxHeaderBytes: 1_024, maxHeaderCount: 8, maxBodyBytes: 64)

  /// Feeds `text` in pieces of `step` bytes; returns what the parser produced, in order.
  private func parse(_ text: String, step: Int = .max) -> [String] {
    parse(Array(text.utf8), step: step)
  }

  private func parse(_ bytes: [UInt8], step: Int = .max) -> [String] {
    var parser = HTTPRequestParser(limits: Self.limits, remoteAddress: "test")
    var buffer = ByteQueue(retainedCapacity: 16_384)
    var outputs: [String] = []
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + min(step, bytes.count))
      bytes[offset..<end].withUnsafeBytes { buffer.append($0) }
      offset = end
      parsing: while true {
        switch parser.parse(&buffer) {
        case .needMoreData:
          break parsing
        case .continueExpected:
          outputs.append("continue")
        case .request(let request, let keepAlive):
          outputs.append(
            "\(request.method) \(request.path) \(request.bodyText) keepAlive=\(keepAlive)")
        case .failure(let status, _):
          outputs.append("\(status.code)")
          return outputs
        }
      }
    }
    return outputs
  }

  @Test func requestsParseTheSameWholeOrByteByByte() {
    let pipelined =
      "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
      + "PUT /b%20c HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nxyz"
      + "POST /d HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n"
      + "GET /e HTTP/1.0\r\n\r\n"
    let expected = [
      "GET /a  keepAlive=true", "PUT /b c xyz keepAlive=true", "POST /d hi keepAlive=true",
      "GET /e  keepAlive=false",
    ]
    #expect(parse(pipelined) == expected)
    #expect(parse(pipelined, step: 1) == expected)
    #expect(parse(pipelined, step: 7) == expected)
  }

  @Test func expectContinueIsReportedOnlyBeforeAnyBodyByte() {
    let head = "PUT /a HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"
    #expect(parse(head + "ok", step: head.utf8.count) == ["continue", "PUT /a ok keepAlive=true"])
    #expect(parse(head + "ok") == ["PUT /a ok keepAlive=true"])
    // HTTP/1.0 ignores the expectation; a request without a body needs no continue.
    #expect(
      parse("PUT /a HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n!")
        == ["PUT /a ! keepAlive=false"])
    #expect(
      parse("GET /a HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n")
        == ["GET /a  keepAlive=true"])
  }

  @Test func limitsGiveTheirStatusesWholeOrByteByByte() {
    let longLine = "GET /" + String(repeating: "a", count: 1_100) + " HTTP/1.1\r\n\r\n"
    let manyHeaders =
      "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<8).map { "X-\($0): y\r\n" }.joined() + "\r\n"
    let bigBody = "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 65\r\n\r\n"
    let bigChunks =
      "PUT / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "20\r\n" + String(repeating: "a", count: 32) + "\r\n"
      + "21\r\n" + String(repeating: "b", count: 33) + "\r\n0\r\n\r\n"
    for step in [1, 100, Int.max] {
      #expect(parse(longLine, step: step) == ["414"])
      #expect(parse(manyHeaders, step: step) == ["431"])
      #expect(parse(bigBody, step: step) == ["413"])
      #expect(parse(bigChunks, step: step) == ["413"])
    }
    let exactBody = "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 64\r\n\r\n"
    #expect(
      parse(exactBody + String(repeating: "c", count: 64))
        == ["PUT / \(String(repeating: "c", count: 64)) keepAlive=true"])
  }

  @Test func theParserIsIdleOnlyBetweenRequests() {
    var parser = HTTPRequestParser(limits: Self.limits, remoteAddress: "test")
    var buffer = ByteQueue(retainedCapacity: 16_384)
    #expect(parser.isIdle)
    Array("\r\nGET / HT".utf8).withUnsafeBytes { buffer.append($0) }
    guard case .needMoreData = parser.parse(&buffer) else {
      Issue.record("a partial request line is not complete")
      return
    }
    #expect(!parser.isIdle)
    Array("TP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { buffer.append($0) }
    guard case .request = parser.parse(&buffer) else {
      Issue.record("the request did not complete")
      return
    }
    #expect(parser.isIdle)
    #expect(buffer.isEmpty)
  }

  @Test func randomInputParsesTheSameWhateverThePiecesItArrivesIn() {
    let templates = [
      "GET /a%20b?x=1&y HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n",
      "PUT /b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
      "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;e\r\nabc\r\n0\r\n\r\n",
      "GET /d HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    ].map { Array($0.utf8) }
    let alphabet = Array(" \r\n:%;/?&=0123456789abcdefGHPT".utf8)
    var random = SeededRandom(seed: 42)
    for _ in 0..<2_000 {
      var bytes = (0..<Int.random(in: 1...4, using: &random)).flatMap { _ in
        templates.randomElement(using: &random)!
      }
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        let position = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes[position] = alphabet.randomElement(using: &random)!
        case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
        default: bytes.remove(at: position)
        }
      }
      let whole = parse(bytes).filter { $0 != "continue" }
      let shown = String(decoding: bytes, as: UTF8.self).debugDescription
      #expect(parse(bytes, step: 1).filter { $0 != "continue" } == whole, "\(shown)")
      #expect(parse(bytes, step: 13).filter { $0 != "continue" } == whole, "\(shown)")
    }
  }

  @Test func percentDecodingRejectsMalformedEscapesAndInvalidUTF8() {
    #expect(PercentDecoding.decode(Array("a%2Fb%20c".utf8), plusIsSpace: false) == "a/b c")
    #expect(PercentDecoding.decode(Array("a+b%2B".utf8), plusIsSpace: true) == "a b+")
    #expect(PercentDecoding.decode(Array("a+b".utf8), plusIsSpace: false) == "a+b")
    #expect(PercentDecoding.decode(Array("caf%c3%a9".utf8), plusIsSpace: false) == "café")
    #expect(PercentDecoding.decode(Array("%".utf8), plusIsSpace: false) == nil)
    #expect(PercentDecoding.decode(Array("%4".utf8), plusIsSpace: false) == nil)
    #expect(PercentDecoding.decode(Array("%4g".utf8), plusIsSpace: false) == nil)
    #expect(PercentDecoding.decode(Array("%FF".utf8), plusIsSpace: false) == nil)
  }
}
