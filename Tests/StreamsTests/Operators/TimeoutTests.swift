import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct TimeoutTests {
  @Test func failsWithCustomErrorAfterSilence() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>(clock: scheduler.clock)
    upstream.timeout(.seconds(1), scheduler: scheduler) { .timedOut }.subscribe(recorder)
    scheduler.advance(by: .milliseconds(900))
    upstream.send(1)
    scheduler.advance(by: .milliseconds(900))
    #expect(recorder.completion == nil)
    scheduler.advance(by: .milliseconds(100))
    #expect(recorder.values == [1])
    #expect(recorder.completion == .failure(.timedOut))
    #expect(recorder.timedEvents.last?.time == 1_900_000_000)
    #expect(upstream.cancelCount == 1)
  }

  @Test func finishesWithoutCustomError() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    subject.timeout(.seconds(1), scheduler: scheduler).subscribe(recorder)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.completion == .finished)
  }

  @Test func upstreamCompletionWinsBeforeTimeout() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    subject.timeout(.seconds(1), scheduler: scheduler) { .timedOut }.subscribe(recorder)
    subject.send(completion: .finished)
    scheduler.advance(by: .seconds(2))
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  @Test func deliversValuesAndCompletionThroughTheScheduler() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.timeout(.seconds(5), scheduler: scheduler).subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.completion == nil)
    scheduler.advance()
    #expect(recorder.values == [1])
    #expect(recorder.completion == .finished)
  }

  @Test func deliversOnTheSchedulersQueue() {
    let queue = DispatchQueue(label: "timeout")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 3)
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox()
    let cancellable = (1...3).publisher.timeout(.seconds(30), scheduler: queue).sink(
      receiveCompletion: { _ in
        box.append(0, onQueue: DispatchQueue.getSpecific(key: key) == 3)
        done.signal()
      },
      receiveValue: { box.append($0, onQueue: DispatchQueue.getSpecific(key: key) == 3) })
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(box.values == [1, 2, 3, 0])
    #expect(box.allOnQueue)
    cancellable.cancel()
  }

  @Test func upstreamFailureIsDeliveredThroughTheSchedulerAfterTheScheduledValues() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    upstream.timeout(.seconds(5), scheduler: scheduler) { .timedOut }.subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(.boom))
    upstream.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.completion == nil)
    scheduler.advance()
    #expect(recorder.values == [1])
    #expect(recorder.completion == .failure(.boom))
    scheduler.advance(by: .seconds(10))
    #expect(recorder.completion == .failure(.boom))
    #expect(recorder.violations.isEmpty)
  }
}
