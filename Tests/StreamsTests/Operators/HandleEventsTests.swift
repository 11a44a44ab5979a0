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

  @Test func receiveRequestReportsDemandReturnedFromAValue() {
    let upstream = ManualPublisher<Int, Never>()
    var requests: [Subscribers.Demand] = []
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
    upstream.handleEvents(receiveRequest: { requests.append($0) }).subscribe(recorder)
    upstream.send(1)
    #expect(requests == [.max(1), .max(2)])
    #expect(upstream.demandLog == [.max(1)])
  }
}
