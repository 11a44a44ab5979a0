import Testing

@testable import Datasync

@Suite struct ServerSentEventParserTests {
  private let stream = Array(
    "event: put\ndata: {\"path\":\"/\",\"data\":1}\n\n: comment\r\nevent:keep-alive\r\ndata:null\r\n\r\n"
      .utf8)

  private func parseWhole(_ bytes: [UInt8]) throws -> [ServerSentEvent] {
    var parser = ServerSentEventParser()
    return try parser.parse(bytes)
  }

  @Test func parsesEventsWithAnyLineEnding() throws {
    #expect(
      try parseWhole(stream) == [
        ServerSentEvent(name: "put", data: #"{"path":"/","data":1}"#),
        ServerSentEvent(name: "keep-alive", data: "null"),
      ])
    #expect(
      try parseWhole(Array("event: a\rdata: 1\r\revent: b\ndata: 2\n\n".utf8)).map(\.name) == [
        "a", "b",
      ])
  }

  @Test func givesTheSameEventsWhateverTheSplit() throws {
    let whole = try parseWhole(stream)
    for split in 0...stream.count {
      var parser = ServerSentEventParser()
      let events = try parser.parse(stream[..<split]) + parser.parse(stream[split...])
      #expect(events == whole, "split at \(split)")
    }
    var parser = ServerSentEventParser()
    let byByte = try stream.flatMap { try parser.parse([$0]) }
    #expect(byByte == whole)
  }

  @Test func joinsDataLinesAndIgnoresOtherFields() throws {
    let events = try parseWhole(
      Array("id: 7\nretry: 10\nunknown\ndata: a\ndata:\ndata:  b\n\nevent: empty\n\n".utf8))
    #expect(events == [ServerSentEvent(name: "message", data: "a\n\n b")])
  }

  @Test func keepsAnIncompleteEventUntilItsBlankLine() throws {
    var parser = ServerSentEventParser()
    #expect(try parser.parse(Array("event: put\ndata: 1\n".utf8)).isEmpty)
    #expect(try parser.parse(Array("\n".utf8)) == [ServerSentEvent(name: "put", data: "1")])
  }

  @Test func refusesInvalidUTF8AndOverlongLinesForGood() throws {
    var parser = ServerSentEventParser()
    #expect(throws: WebcomError.self) { try parser.parse([0x64, 0x61, 0xFF, 0x0A]) }
    #expect(throws: WebcomError.self) { try parser.parse(Array("data: 1\n\n".utf8)) }
    var short = ServerSentEventParser(maximumLineLength: 8)
    #expect(try short.parse(Array("data: 1\n".utf8)).isEmpty)
    let error = #expect(throws: WebcomError.self) { try short.parse(Array("data: 123456789".utf8)) }
    #expect(error?.code == .decodingFailed)
    #expect(error?.message.contains("longer than 8 bytes") == true)
  }
}
