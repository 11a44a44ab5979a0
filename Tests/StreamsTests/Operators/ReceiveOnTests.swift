import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct ReceiveOnTests {
  @Test func deliversOnTheSchedulerInOrder() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    subject.receive(on: scheduler).subscribe(recorder)
    scheduler.advance()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    scheduler.advance()
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .finished)
  }

  @Test func deliversOnDispatchQueue() {
    let queue = DispatchQueue(label: "receive-on")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 7)
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox()
    let cancellable = (1...3).publisher.receive(on: queue).sink(
      receiveCompletion: { _ in done.signal() },
      receiveValue: { box.append($0, onQueue: DispatchQueue.getSpecific(key: key) == 7) })
    #expect(done.wait(timeout: .now() + 5) == .success)
    #expect(box.values == [1, 2, 3])
    #expect(box.allOnQueue)
    cancellable.cancel()
  }

  @Test func forwardsEveryValueItReceivedWithoutPolicingDemand() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, Never>()
    var received: [Int] = []
    upstream.receive(on: scheduler).subscribe(
      AnySubscriber(
        receiveSubscription: { $0.request(.max(1)) },
        receiveValue: { value in
          received.append(value)
          return .none
        }))
    scheduler.advance()
    #expect(upstream.demandLog == [.max(1)])
    upstream.send(1)
    upstream.send(2)
    scheduler.advance()
    #expect(received == [1, 2])
  }

  @Test func demandReturnedByADeliveredValueGoesUpstream() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(
      initialDemand: .max(1), demandPerValue: .max(2))
    upstream.receive(on: scheduler).subscribe(recorder)
    scheduler.advance()
    upstream.send(1)
    #expect(upstream.demandLog == [.max(1)])
    scheduler.advance()
    #expect(upstream.demandLog == [.max(1), .max(2)])
  }

  @Test func deliversWhatWasScheduledBeforeACancel() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.receive(on: scheduler).subscribe(recorder)
    scheduler.advance()
    upstream.send(1)
    upstream.send(2)
    recorder.cancel()
    #expect(upstream.cancelCount == 1)
    upstream.send(3)
    scheduler.advance()
    #expect(recorder.values == [1, 2])
  }

  @Test func theSubscriptionIsDeliveredThroughTheSchedulerSoEarlySubjectValuesAreNotDelivered() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    subject.receive(on: scheduler).subscribe(recorder)
    #expect(recorder.events.isEmpty)
    subject.send(1)
    scheduler.advance()
    #expect(recorder.events.count == 1)
    subject.send(2)
    scheduler.advance()
    #expect(recorder.values == [2])
    #expect(recorder.violations.isEmpty)
  }

  @Test func aCompletionBeforeTheSubscriptionWasDeliveredFollowsIt() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    upstream.receive(on: scheduler).subscribe(recorder)
    upstream.send(completion: .failure(.boom))
    scheduler.advance()
    #expect(recorder.events.count == 2)
    #expect(recorder.completion == .failure(.boom))
    #expect(recorder.violations.isEmpty)
  }

  @Test func subscribeOnSubscribesOnTheScheduler() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
    upstream.subscribe(on: scheduler).subscribe(recorder)
    #expect(upstream.subscriptionCount == 0)
    scheduler.advance()
    #expect(upstream.subscriptionCount == 1)
    #expect(upstream.demandLog == [.max(1)])
    recorder.request(.max(2))
    #expect(upstream.demandLog == [.max(1)])
    scheduler.advance()
    #expect(upstream.demandLog == [.max(1), .max(2)])
    recorder.cancel()
    #expect(upstream.cancelCount == 0)
    scheduler.advance()
    #expect(upstream.cancelCount == 1)
  }
}

/// Collects values from another thread.
final class ResultBox: @unchecked Sendable {
  private let lock = NSLock()
  // Protected by `lock`.
  private var storage: [Int] = []
  private var onQueue = true

  func append(_ value: Int, onQueue: Bool) {
    lock.withLock {
      storage.append(value)
      self.onQueue = self.onQueue && onQueue
    }
  }

  var values: [Int] { lock.withLock { storage } }
  var allOnQueue: Bool { lock.withLock { onQueue } }
}
