import Streams
import StreamsTesting
import Testing

@Suite struct RemoveDuplicatesTests {
  @Test func removeDuplicatesHonoursTheContract() {
    checkContract(inputs: [1, 1, 2, 2, 1], expected: [1, 2, 1]) { upstream, token in
      upstream.map { token.keep($0) }.removeDuplicates()
    }
  }

  @Test func byComparesWithThePreviousDeliveredValue() {
    checkContract(inputs: [1, 3, 2, 4, 5], expected: [1, 2, 5]) { upstream, token in
      upstream.removeDuplicates { token.keep($0 % 2 == $1 % 2) }
    }
  }

  @Test func droppedValuesAreNotComparedAgainst() {
    var values: [Int] = []
    _ = [1, 2, 3, 4].publisher.removeDuplicates { abs($0 - $1) <= 1 }.sink { values.append($0) }
    #expect(values == [1, 3])
  }

  @Test func duplicateRequestsOneMoreUpstream() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(5))
    upstream.removeDuplicates().subscribe(recorder)
    upstream.send(1)
    #expect(upstream.send(1) == [.max(1)])
  }

  @Test func tryRemoveDuplicatesHonoursTheContract() {
    checkContract(inputs: [1, 1, 2, 2, 1], expected: [1, 2, 1]) { upstream, token in
      upstream.tryRemoveDuplicates { token.keep($0 == $1) }
    }
  }

  @Test func tryRemoveDuplicatesFailsWhenThePredicateThrows() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, any Error>()
    upstream.tryRemoveDuplicates { _, next in
      if next == 3 { throw TestError(code: 3) }
      return false
    }.subscribe(recorder)
    for value in 1...4 {
      upstream.send(value)
    }
    #expect(recorder.values == [1, 2])
    #expect(recorder.ending == .failed("TestError(3)"))
    #expect(upstream.cancelCount == 1)
  }
}
