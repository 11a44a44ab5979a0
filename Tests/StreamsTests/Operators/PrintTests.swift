import Streams
import StreamsTesting
import Testing

@Suite struct PrintTests {
  @Test func printWritesALinePerEvent() {
    let lines = LineCollector()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    [7].publisher.print("n", to: lines).subscribe(recorder)
    let written = lines.text.split(separator: "\n").map(String.init)
    #expect(written.count == 5)
    #expect(written.first?.hasPrefix("n: receive subscription: (") == true)
    #expect(
      Array(written.dropFirst()) == [
        "n: request max: (1)", "n: receive value: (7)", "n: request max: (1) (synchronous)",
        "n: receive finished",
      ])
  }

  @Test func printHonoursTheContractAndReportsCancelAndError() {
    let lines = LineCollector()
    checkContract(inputs: [1, 2], expected: [1, 2]) { upstream, token in
      upstream.map { token.keep($0) }.print(to: lines)
    }
    #expect(lines.text.contains("receive cancel\n"))
    #expect(lines.text.contains("receive error: (TestError(7))\n"))
    #expect(!lines.text.contains(": receive"))
  }
}

/// A text stream collecting everything written to it, shared by reference.
final class LineCollector: TextOutputStream, @unchecked Sendable {
  // Written from one thread only: the tests drive their publishers synchronously.
  private(set) var text = ""

  func write(_ string: String) {
    text += string
  }
}
