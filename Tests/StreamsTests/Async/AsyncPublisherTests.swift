import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct AsyncPublisherTests {
  @Test func iteratesInOrderAndEndsOnCompletion() async {
    var received: [Int] = []
    for await value in (1...5).publisher.values {
      received.append(value)
    }
    #expect(received == [1, 2, 3, 4, 5])
  }

  @Test func subscribesLazilyAndRequestsOnePerNext() async {
    let upstream = ManualPublisher<Int, Never>()
    let sequence = upstream.values
    #expect(upstream.subscriptionCount == 0)
    var iterator = sequence.makeAsyncIterator()
    #expect(upstream.subscriptionCount == 1)
    #expect(upstream.demandLog.isEmpty)
    async let first = iterator.next()
    #expect(await eventually { upstream.demandLog == [.max(1)] })
    upstream.send(10)
    #expect(await first == 10)
    #expect(upstream.demandLog == [.max(1)])
  }

  @Test func throwsTheFailureOnce() async throws {
    let subject = PassthroughSubject<Int, TestError>()
    var iterator = subject.values(bufferingPolicy: .unbounded).makeAsyncIterator()
    subject.send(1)
    subject.send(completion: .failure(TestError(code: 9)))
    #expect(try await iterator.next() == 1)
    await #expect(throws: TestError(code: 9)) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test func throwingLoopThrowsUpstreamFailureAfterItsValues() async {
    let upstream = ManualPublisher<Int, TestError>()
    let feeder = Task {
      var sent = 0
      while sent < 3 {
        if upstream.requestedDemand > .max(sent) {
          sent += 1
          upstream.send(sent)
        }
        await Task.yield()
      }
      while upstream.requestedDemand == .max(3) { await Task.yield() }
      upstream.send(completion: .failure(TestError(code: 4)))
    }
    var received: [Int] = []
    await #expect(throws: TestError(code: 4)) {
      for try await value in upstream.values {
        received.append(value)
      }
    }
    await feeder.value
    #expect(received == [1, 2, 3])
  }

  @Test func failImmediatelyThrows() async {
    await #expect(throws: TestError(code: 1)) {
      for try await _ in Fail<Int, TestError>(error: TestError(code: 1)).values {}
    }
  }

  @Test func breakingOutOfTheLoopCancelsUpstream() async {
    let upstream = ManualPublisher<Int, Never>()
    let feeder = Task {
      var sent = 0
      while sent < 3 {
        if upstream.requestedDemand > .max(sent) {
          sent += 1
          upstream.send(sent)
        }
        await Task.yield()
      }
    }
    for await value in upstream.values where value == 3 {
      break
    }
    await feeder.value
    #expect(upstream.cancelCount == 1)
  }

  @Test func taskCancellationCancelsUpstreamAndEndsTheLoop() async {
    let upstream = ManualPublisher<Int, Never>()
    let loop = Task {
      var count = 0
      for await _ in upstream.values { count += 1 }
      return count
    }
    #expect(await eventually { upstream.requestedDemand == .max(1) })
    loop.cancel()
    #expect(await loop.value == 0)
    #expect(upstream.cancelCount == 1)
  }

  @Test func releasesEverythingAfterTheLoop() async {
    let counter = LifetimeCounter()
    do {
      let subject = CurrentValueSubject<Tracked, Never>(Tracked(0, counter: counter))
      for await value in subject.values {
        #expect(value.id == 0)
        break
      }
    }
    #expect(counter.count == 0)
  }

  @Test func twoTasksWaitingOnOneIteratorEachGetAValue() async {
    let upstream = ManualPublisher<Int, Never>()
    let iterator = upstream.values.makeAsyncIterator()
    let first = Task {
      var copy = iterator
      return await copy.next()
    }
    let second = Task {
      var copy = iterator
      return await copy.next()
    }
    #expect(await eventually { upstream.requestedDemand == .max(2) })
    upstream.send(1)
    upstream.send(2)
    let received = [await first.value, await second.value].compactMap { $0 }
    #expect(received.sorted() == [1, 2])
  }

  @Test func finishResumesEveryWaitingNext() async {
    let upstream = ManualPublisher<Int, Never>()
    let iterator = upstream.values.makeAsyncIterator()
    let waiting = (0..<3).map { _ in
      Task {
        var copy = iterator
        return await copy.next()
      }
    }
    #expect(await eventually { upstream.requestedDemand == .max(3) })
    upstream.send(completion: .finished)
    for task in waiting {
      #expect(await task.value == nil)
    }
  }

  @Test func failureThrowsInTheOldestWaitingNextAndEndsTheOthers() async throws {
    let upstream = ManualPublisher<Int, TestError>()
    let iterator = upstream.values.makeAsyncIterator()
    let oldest = Task {
      var copy = iterator
      return try await copy.next()
    }
    #expect(await eventually { upstream.requestedDemand == .max(1) })
    let younger = Task {
      var copy = iterator
      return try await copy.next()
    }
    #expect(await eventually { upstream.requestedDemand == .max(2) })
    upstream.send(completion: .failure(TestError(code: 5)))
    await #expect(throws: TestError(code: 5)) { try await oldest.value }
    #expect(try await younger.value == nil)
    var later = iterator
    #expect(try await later.next() == nil)
  }

  @Test func aValueBeforeTheSubscriptionEndsTheWaitingCallsAndKeepsTheirDemand() async {
    let upstream = LateSubscriptionPublisher()
    let iterator = upstream.values.makeAsyncIterator()
    let ended = ResultBox()
    for _ in 0..<2 {
      Task {
        var copy = iterator
        ended.append(await copy.next() ?? -1, onQueue: true)
      }
    }
    // A call may not be waiting yet when a value is sent, so values go on until both ended. The
    // two tasks, and this loop, may wait for a thread until the suite's blocking tests are done
    // (the whole suite under the thread sanitizer on two cores held them for over a minute).
    #expect(
      await eventually(timeout: .seconds(300)) {
        upstream.sendBeforeSubscription(7)
        return ended.values.count == 2
      })
    #expect(ended.values == [-1, -1])
    upstream.attach()
    #expect(upstream.manual.demandLog == [.max(2)])
  }

  @Test func cancellingOneWaitingTaskResumesEveryWaiter() async {
    let upstream = ManualPublisher<Int, Never>()
    let iterator = upstream.values.makeAsyncIterator()
    let first = Task {
      var copy = iterator
      return await copy.next()
    }
    let second = Task {
      var copy = iterator
      return await copy.next()
    }
    #expect(await eventually { upstream.requestedDemand == .max(2) })
    first.cancel()
    #expect(await first.value == nil)
    #expect(await second.value == nil)
    #expect(upstream.cancelCount == 1)
  }

  @Test func demandAskedBeforeTheSubscriptionAccumulates() async {
    let upstream = LateSubscriptionPublisher()
    let iterator = upstream.values.makeAsyncIterator()
    let waiting = (0..<3).map { _ in
      Task {
        var copy = iterator
        return await copy.next()
      }
    }
    await Task.yield()
    upstream.attach()
    #expect(await eventually { upstream.manual.requestedDemand == .max(3) })
    for value in 1...3 { upstream.manual.send(value) }
    var received: [Int] = []
    for task in waiting {
      if let value = await task.value { received.append(value) }
    }
    #expect(received.sorted() == [1, 2, 3])
  }

  @Test func aValueSentWithoutAWaitingNextIsNotDelivered() async {
    let upstream = ManualPublisher<Int, Never>()
    var iterator = upstream.values.makeAsyncIterator()
    upstream.send(1)
    async let next = iterator.next()
    #expect(await eventually { upstream.requestedDemand == .max(1) })
    upstream.send(2)
    #expect(await next == 2)
  }
}

/// A publisher that holds its subscriber until `attach()`, then hands it a subscription of
/// `manual`.
private final class LateSubscriptionPublisher: Publisher, @unchecked Sendable {
  typealias Output = Int
  typealias Failure = Never

  let manual = ManualPublisher<Int, Never>()
  private let lock = NSLock()
  // Protected by `lock`: the subscriber waiting for `attach()`.
  private var waiting: AnySubscriber<Int, Never>?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    lock.withLock { waiting = AnySubscriber(subscriber) }
  }

  func attach() {
    guard let subscriber = lock.withLock({ waiting }) else { return }
    manual.subscribe(subscriber)
  }

  /// Sends `value` to the waiting subscriber before it has a subscription (out of contract).
  func sendBeforeSubscription(_ value: Int) {
    _ = lock.withLock({ waiting })?.receive(value)
  }
}
