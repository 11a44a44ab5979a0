import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct PassthroughSubjectTests {
  @Test func deliversToSubscribersInSubscriptionOrder() {
    let subject = PassthroughSubject<Int, Never>()
    var log: [String] = []
    var cancellables: [AnyCancellable] = []
    for name in ["a", "b", "c", "d", "e"] {
      subject.sink { log.append("\(name)\($0)") }.store(in: &cancellables)
    }
    subject.send(1)
    subject.send(2)
    #expect(log == ["a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2"])
  }

  @Test func dropsValuesWithoutDemand() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
    subject.subscribe(recorder)
    subject.send(1)
    subject.send(2)
    recorder.request(.max(1))
    subject.send(3)
    #expect(recorder.values == [1, 3])
    #expect(recorder.violations.isEmpty)
  }

  @Test func completesSubscribersAndLateSubscribers() {
    let subject = PassthroughSubject<Int, TestError>()
    let early = RecordingSubscriber<Int, TestError>()
    subject.subscribe(early)
    subject.send(completion: .failure(TestError(code: 1)))
    subject.send(5)
    let late = RecordingSubscriber<Int, TestError>()
    subject.subscribe(late)
    #expect(early.completion == .failure(TestError(code: 1)))
    #expect(early.values.isEmpty)
    #expect(late.isSubscribed)
    #expect(late.completion == .failure(TestError(code: 1)))
  }

  @Test func cancelStopsDeliveryAndReleasesSubscriber() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakRecorder: RecordingSubscriber<Int, Never>?
    do {
      let recorder = RecordingSubscriber<Int, Never>()
      weakRecorder = recorder
      subject.subscribe(recorder)
      subject.send(1)
      recorder.cancel()
      subject.send(2)
      #expect(recorder.values == [1])
    }
    #expect(weakRecorder == nil)
  }

  @Test func cancelFromInsideReceive() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.sink {
      received.append($0)
      cancellable?.cancel()
    }
    subject.send(1)
    subject.send(2)
    #expect(received == [1])
  }

  @Test func reentrantSendIsDeliveredAfterTheCurrentValue() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.sink { value in
      received.append(value)
      if value == 1 { subject.send(2) }
      received.append(-value)
    }
    subject.send(1)
    #expect(received == [1, -1, 2, -2])
    withExtendedLifetime(cancellable) {}
  }

  @Test func forwardsAnUpstreamPublisherIntoTheSubject() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    subject.subscribe(recorder)
    let forwarding = (1...3).publisher.subscribe(subject)
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.completion == .finished)
    forwarding.cancel()
  }

  @Test func concurrentSendsJoinsAndCancelsKeepTheContract() {
    let subject = PassthroughSubject<Int, Never>()
    let recorders = (0..<8).map { index in
      RecordingSubscriber<Int, Never>(
        initialDemand: .max(index + 1), demandPerValue: index.isMultiple(of: 2) ? .max(1) : .none)
    }
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      subject.subscribe(recorders[thread])
      for value in 0..<2_000 {
        subject.send(thread * 10_000 + value)
        if value == 1_000 && thread.isMultiple(of: 3) {
          recorders[thread].cancel()
        }
      }
    }
    subject.send(completion: .finished)
    for (index, recorder) in recorders.enumerated() {
      #expect(recorder.violations.isEmpty)
      if !index.isMultiple(of: 2) {
        #expect(recorder.values.count <= index + 1)
      }
    }
  }

  @Test func subscribersJoinAndLeaveWhileEightThreadsSend() {
    let subject = PassthroughSubject<Int, Never>()
    let steady = RecordingSubscriber<Int, Never>()
    subject.subscribe(steady)
    let sendsPerThread = 1_000
    let churned = (0..<8).map { _ in
      (0..<10).map { _ in
        RecordingSubscriber<Int, Never>(initialDemand: .max(50), demandPerValue: .max(1))
      }
    }
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for value in 0..<sendsPerThread {
        let round = value / 100
        if value.isMultiple(of: 100) {
          subject.subscribe(churned[thread][round])
          if round > 0 { churned[thread][round - 1].cancel() }
        }
        subject.send(thread * 10_000 + value)
      }
    }
    subject.send(completion: .finished)
    let values = steady.values
    #expect(values.count == 8 * sendsPerThread)
    for thread in 0..<8 {
      let sent = values.filter { $0 / 10_000 == thread }.map { $0 % 10_000 }
      #expect(sent == Array(0..<sendsPerThread))
    }
    #expect(steady.completion == .finished)
    #expect(steady.violations.isEmpty)
    for rounds in churned {
      for (round, recorder) in rounds.enumerated() {
        #expect(recorder.violations.isEmpty)
        #expect(recorder.completion == (round == rounds.count - 1 ? .finished : nil))
        for thread in 0..<8 {
          let sent = recorder.values.filter { $0 / 10_000 == thread }
          #expect(sent == sent.sorted())
        }
      }
    }
  }
}
