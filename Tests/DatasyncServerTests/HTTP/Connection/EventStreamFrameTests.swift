import Datasync
import Testing

@testable import DatasyncServer

/// The wire format of Server-Sent Events frames and of the chunks that carry them.
@Suite struct EventStreamFrameTests {
  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test func anEventHasItsNameIdAndOneDataLinePerLine() throws {
    #expect(
      text(try EventStreamFrame.event("put", data: "{\"a\":1}", id: nil))
        == "event: put\ndata: {\"a\":1}\n\n")
    #expect(
      text(try EventStreamFrame.event("patch", data: "a\nb\r\nc\rd", id: "42"))
        == "event: patch\nid: 42\ndata: a\ndata: b\ndata: c\ndata: d\n\n")
    #expect(text(try EventStreamFrame.event(nil, data: "", id: nil)) == "data: \n\n")
    #expect(
      text(try EventStreamFrame.event(nil, data: "end\n", id: nil)) == "data: end\ndata: \n\n")
  }

  @Test func lineBreaksInNamesAndIdsAreRejected() {
    for (event, id) in [("a\nb", nil), ("a\rb", nil), (nil, "1\n"), (nil, "1\u{0}")]
      as [(String?, String?)]
    {
      let error = #expect(throws: WebcomError.self) {
        try EventStreamFrame.event(event, data: "x", id: id)
      }
      #expect(error?.code == .invalidArgument)
    }
  }

  @Test func commentsAndChunks() {
    #expect(text(EventStreamFrame.comment("keep-alive")) == ": keep-alive\n\n")
    #expect(text(EventStreamFrame.comment("a\nb")) == ": a\n: b\n\n")
    #expect(
      text(EventStreamFrame.chunk(Array(String(repeating: "x", count: 26).utf8)))
        == "1a\r\n" + String(repeating: "x", count: 26) + "\r\n")
    #expect(EventStreamFrame.chunk([]).isEmpty)
  }
}
