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
}
