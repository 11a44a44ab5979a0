import Streams
import StreamsTesting
import Testing

@Suite struct AsyncBufferedPublisherTests {
  /// Sends 1...10 and finishes while nobody awaits, then drains the sequence.
  private func drain(_ policy: AsyncBufferingPolicy) async -> [Int] {
    let subject = PassthroughSubject<Int, Never>()
    var iterator = subject.values(bufferingPolicy: policy).makeAsyncIterator()
    for value in 1...10 { subject.send(value) }
    subject.send(completion: .finished)
    var received: [Int] = []
    while let value = await iterator.next() {
      received.append(value)
    }
    return received
  }

  @Test func unboundedKeepsEverything() async {
    #expect(await drain(.unbounded) == Array(1...10))
  }

  @Test func bufferingOldestDropsNewArrivalsWhenFull() async {
    #expect(await drain(.bufferingOldest(3)) == [1, 2, 3])
  }

  @Test func bufferingNewestDropsTheOldestWhenFull() async {
    #expect(await drain(.bufferingNewest(3)) == [8, 9, 10])
  }

  @Test func zeroCapacityKeepsNothingWhileBusy() async {
    #expect(await drain(.bufferingNewest(0)) == [])
  }

  @Test func slowConsumerGetsValuesSentWhileBusy() async {
    var received: [Int] = []
    let feeder = PassthroughSubject<Int, Never>()
    var iterator = feeder.values(bufferingPolicy: .unbounded).makeAsyncIterator()
    feeder.send(0)
    while let value = await iterator.next() {
      received.append(value)
      if value == 0 {
        for next in 1...100 { feeder.send(next) }
        feeder.send(completion: .finished)
      }
    }
    #expect(received == Array(0...100))
  }

  @Test func failureComesAfterTheKeptValues() async throws {
    let subject = PassthroughSubject<Int, TestError>()
    var iterator = subject.values(bufferingPolicy: .unbounded).makeAsyncIterator()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .failure(TestError(code: 3)))
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    await #expect(throws: TestError(code: 3)) { try await iterator.next() }
  }

  @Test func taskCancellationCancelsUpstream() async {
    let upstream = ManualPublisher<Int, Never>()
    let loop = Task {
      for await _ in upstream.values(bufferingPolicy: .unbounded) {}
    }
    #expect(await eventually { upstream.requestedDemand == .unlimited })
    loop.cancel()
    await loop.value
    #expect(upstream.cancelCount == 1)
  }

  @Test func leavingTheLoopReleasesKeptValues() async {
    let counter = LifetimeCounter()
    do {
      let subject = PassthroughSubject<Tracked, Never>()
      var iterator: AsyncBufferedPublisher<PassthroughSubject<Tracked, Never>>.Iterator? =
        subject.values(bufferingPolicy: .unbounded).makeAsyncIterator()
      for id in 0..<5 { subject.send(Tracked(id, counter: counter)) }
      #expect(counter.count == 5)
      iterator = nil
      #expect(iterator == nil)
    }
    #expect(counter.count == 0)
  }
}
