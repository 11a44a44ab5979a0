import Streams
import StreamsTesting
import Testing

@Suite struct HandleEventsTests {
  @Test func handleEventsHonoursTheContract() {
    checkContract(inputs: [1, 2], expected: [1, 2]) { upstream, token in
      upstream.handleEvents(receiveOutput: { _ = token.keep($0) })
    }
  }

  @Test func hooksSeeEveryEventInOrder() {
    var log: [String] = []
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.handleEvents(
      receiveSubscription: { _ in log.append("subscription") },
      receiveOutput: { log.append("value \($0)") },
      receiveCompletion: { _ in log.append("completion") },
      receiveCancel: { log.append("cancel") },
      receiveRequest: { log.append("request \($0)") }
    ).subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .finished)
    #expect(log == ["subscription", "request max(2)", "value 1", "completion"])
    #expect(recorder.values == [1])
  }

  @Test func cancelIsReportedOnce() {
    var cancels = 0
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = CancelOnFirstValue<Int, Never>()
    upstream.handleEvents(receiveCancel: { cancels += 1 }).subscribe(subscriber)
    upstream.send(1)
    subscriber.subscription?.cancel()
    #expect(cancels == 1)
    #expect(upstream.cancelCount == 1)
  }

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
