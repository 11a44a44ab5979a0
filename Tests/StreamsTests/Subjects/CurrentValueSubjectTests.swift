import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct CurrentValueSubjectTests {
  @Test func replaysCurrentValueOnFirstDemand() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    subject.subscribe(recorder)
    #expect(recorder.values.isEmpty)
    subject.send(2)
    recorder.request(.max(1))
    #expect(recorder.values == [2])
    subject.send(3)
    #expect(recorder.values == [2])
    recorder.request(.max(5))
    subject.send(4)
    #expect(recorder.values == [2, 4])
    #expect(recorder.violations.isEmpty)
  }

  @Test func valueReadsAndWrites() {
    let subject = CurrentValueSubject<String, Never>("a")
    var received: [String] = []
    let cancellable = subject.sink { received.append($0) }
    subject.value = "b"
    subject.value += "c"
    #expect(subject.value == "bc")
    #expect(received == ["a", "b", "bc"])
    withExtendedLifetime(cancellable) {}
  }

  @Test func completionIgnoresLaterSends() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let recorder = RecordingSubscriber<Int, Never>()
    subject.subscribe(recorder)
    subject.send(completion: .finished)
    subject.send(9)
    #expect(recorder.values == [0])
    #expect(recorder.completion == .finished)
    let late = RecordingSubscriber<Int, Never>()
    subject.subscribe(late)
    #expect(late.values.isEmpty)
    #expect(late.completion == .finished)
  }

  @Test func concurrentSendsNeverDuplicateTheReplayedValue() {
    for _ in 0..<50 {
      let subject = CurrentValueSubject<Int, Never>(0)
      let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
      subject.subscribe(recorder)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          for value in 1...200 { subject.send(value) }
        } else {
          recorder.request(.unlimited)
        }
      }
      let values = recorder.values
      #expect(values == values.sorted())
      #expect(Set(values).count == values.count)
      #expect(values.last == 200)
      #expect(recorder.violations.isEmpty)
    }
  }

  @Test func cancelFromInsideTheReplayedValueStopsDelivery() {
    let subject = CurrentValueSubject<Int, Never>(5)
    let subscriber = CancelOnFirstValue<Int, Never>()
    subject.subscribe(subscriber)
    subject.send(6)
    subject.send(completion: .finished)
    #expect(subscriber.values == [5])
    #expect(subscriber.completions == 0)
  }

  @Test func valueStillUpdatesAfterCompletion() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let recorder = RecordingSubscriber<Int, Never>()
    subject.subscribe(recorder)
    subject.send(completion: .finished)
    subject.value = 5
    #expect(subject.value == 5)
    subject.send(6)
    #expect(subject.value == 5)
    #expect(recorder.values == [1])
  }

  @Test func currentValueIsDeliveredInsideTheSubscribersRequest() {
    let subject = CurrentValueSubject<Int, Never>(7)
    var log: [String] = []
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { subscription in
        log.append("request")
        subscription.request(.max(1))
        log.append("requested")
      },
      receiveValue: { value in
        log.append("value \(value)")
        return .none
      })
    subject.subscribe(subscriber)
    #expect(log == ["request", "value 7", "requested"])
  }
}
