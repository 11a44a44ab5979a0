import Streams
import StreamsTesting
import Testing

@Suite struct FirstTests {
  @Test func firstDeliversTheFirstValueAndCancelsUpstream() {
    checkContract(
      inputs: [1, 2, 3], expected: [1], expectedOnFailure: [1], failureEnding: .finished
    ) { upstream, token in
      upstream.map { token.keep($0) }.first()
    }
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.first().subscribe(recorder)
    upstream.send(8)
    #expect(upstream.cancelCount == 1)
    #expect(recorder.completion == .finished)
  }

  @Test func firstOfAnEmptyUpstreamFinishesWithoutAValue() {
    checkContract(inputs: [], expected: [], expectedOnFailure: []) { upstream, token in
      upstream.map { token.keep($0) }.first()
    }
  }

  @Test func emptyUpstreamHoldsTheFinishUntilTheDownstreamAsks() {
    func check<P: Publisher>(_ name: String, _ make: (PassthroughSubject<Int, Never>) -> P)
    where P.Output == Int, P.Failure == Never {
      let subject = PassthroughSubject<Int, Never>()
      let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
      make(subject).subscribe(recorder)
      subject.send(completion: .finished)
      #expect(recorder.completion == nil, "\(name) finished before any demand")
      recorder.request(.max(1))
      #expect(recorder.completion == .finished, "\(name) did not finish on demand")
      #expect(recorder.values.isEmpty)
    }
    check("first") { $0.first() }
    check("first(where:)") { $0.first { $0 > 0 } }
    check("last") { $0.last() }
    check("last(where:)") { $0.last { $0 > 0 } }
    check("min") { $0.min() }
    check("max") { $0.max() }
  }

  @Test func firstKeepsItsValueUntilTheDownstreamAsks() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    upstream.first().subscribe(recorder)
    upstream.send(8)
    #expect(upstream.cancelCount == 1)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [8])
    #expect(recorder.completion == .finished)
  }

  @Test func firstWhereHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 3], expected: [2], expectedOnFailure: [2], failureEnding: .finished
    ) { upstream, token in
      upstream.first { token.keep($0 > 1) }
    }
  }

  @Test func tryFirstWhereHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 3], expected: [2], expectedOnFailure: [2], failureEnding: .finished
    ) { upstream, token in
      upstream.tryFirst { token.keep($0 > 1) }
    }
  }

  @Test func tryFirstWhereFailsWhenThePredicateThrows() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, any Error>()
    upstream.tryFirst { _ in throw TestError(code: 1) }.subscribe(recorder)
    upstream.send(1)
    #expect(recorder.ending == .failed("TestError(1)"))
    #expect(upstream.cancelCount == 1)
  }
}
