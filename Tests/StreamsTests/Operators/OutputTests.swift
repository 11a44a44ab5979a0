import Streams
import StreamsTesting
import Testing

@Suite struct OutputTests {
  @Test func outputAtDeliversOneValueThenFinishesEarly() {
    checkContract(
      inputs: [1, 2, 3], expected: [2], expectedOnFailure: [2], failureEnding: .finished
    ) { upstream, token in
      upstream.map { token.keep($0) }.output(at: 1)
    }
  }

  @Test func outputInDeliversTheRangeThenCancelsUpstream() {
    checkContract(
      inputs: [1, 2, 3, 4], expected: [2, 3], expectedOnFailure: [2, 3], failureEnding: .finished
    ) { upstream, token in
      upstream.map { token.keep($0) }.output(in: 1...2)
    }
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.output(in: 1..<3).subscribe(recorder)
    for value in 0..<5 {
      upstream.send(value)
    }
    #expect(recorder.values == [1, 2])
    #expect(upstream.cancelCount == 1)
  }

  @Test func prefixDeliversTheFirstValues() {
    checkContract(
      inputs: [1, 2, 3], expected: [1, 2], expectedOnFailure: [1, 2], failureEnding: .finished
    ) { upstream, token in
      upstream.map { token.keep($0) }.prefix(2)
    }
  }

  @Test func prefixLongerThanTheUpstreamForwardsItsCompletion() {
    checkContract(inputs: [1, 2], expected: [1, 2]) { upstream, token in
      upstream.map { token.keep($0) }.prefix(5)
    }
  }

  @Test func prefixZeroFinishesAtOnceAndCancelsUpstream() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.prefix(0).subscribe(recorder)
    #expect(recorder.completion == .finished)
    #expect(upstream.cancelCount == 1)
    upstream.send(1)
    #expect(recorder.values.isEmpty)
  }

  @Test func negativeBoundsAreClamped() {
    var values: [Int] = []
    _ = (1...3).publisher.eraseToAnyPublisher().output(at: -1).sink { values.append($0) }
    _ = (1...3).publisher.eraseToAnyPublisher().prefix(-2).sink { values.append($0) }
    _ = (1...3).publisher.eraseToAnyPublisher().output(in: -5..<1).sink { values.append($0) }
    #expect(values == [1])
  }

  @Test func valuesInTheRangeReturnTheDownstreamsDemandEvenTheLast() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3), demandPerValue: .max(5))
    upstream.output(in: 1..<3).subscribe(recorder)
    #expect(upstream.demandLog == [.max(3)])
    #expect(upstream.send(0) == [.max(1)])
    #expect(upstream.send(1) == [.max(5)])
    #expect(upstream.send(2) == [.max(5)])
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .finished)
    #expect(upstream.cancelCount == 1)
  }

}
