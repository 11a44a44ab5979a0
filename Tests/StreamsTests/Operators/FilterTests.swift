import Streams
import StreamsTesting
import Testing

@Suite struct FilterTests {
  @Test func filterHonoursTheContract() {
    checkContract(inputs: [1, 2, 3, 4], expected: [2, 4]) { upstream, token in
      upstream.filter { token.keep($0.isMultiple(of: 2)) }
    }
  }

  @Test func fusedFiltersRequireBothPredicates() {
    checkContract(inputs: Array(1...12), expected: [6, 12]) { upstream, token in
      upstream.filter { token.keep($0.isMultiple(of: 2)) }.filter { $0.isMultiple(of: 3) }
    }
  }

  @Test func droppedValueRequestsOneMoreUpstream() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
    upstream.filter { $0 > 1 }.subscribe(recorder)
    #expect(upstream.send(1) == [.max(1)])
    #expect(upstream.send(2) == [.none])
    #expect(recorder.values == [2])
  }

  @Test func tryFilterHonoursTheContract() {
    checkContract(inputs: [1, 2, 3, 4], expected: [2, 4]) { upstream, token in
      upstream.tryFilter { token.keep($0.isMultiple(of: 2)) }
    }
  }

  @Test func tryFilterFailsAndCancelsUpstreamWhenThePredicateThrows() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, any Error>()
    upstream.tryFilter { value in
      if value == 3 { throw TestError(code: 3) }
      return value.isMultiple(of: 2)
    }.subscribe(recorder)
    for value in 1...5 {
      upstream.send(value)
    }
    #expect(recorder.values == [2])
    #expect(recorder.ending == .failed("TestError(3)"))
    #expect(upstream.cancelCount == 1)
  }

  @Test func filterThenTryFilterFuseIntoOneTryFilter() {
    let upstream = ManualPublisher<Int, Never>()
    let fused: Publishers.TryFilter<ManualPublisher<Int, Never>> =
      upstream.filter { $0 % 2 == 0 }.tryFilter { value in
        guard value < 6 else { throw TestError.boom }
        return value > 0
      }
    let recorder = RecordingSubscriber<Int, any Error>()
    fused.subscribe(recorder)
    for value in [1, 2, 3, 4, 6, 8] { upstream.send(value) }
    #expect(recorder.values == [2, 4])
    #expect(recorder.completion != nil)
    #expect(upstream.cancelCount == 1)
  }
}
