import Streams
import StreamsTesting
import Testing

@Suite struct DropWhileTests {
  @Test func dropWhileDropsUntilTheFirstFailingValue() {
    checkContract(inputs: [1, 2, 5, 1], expected: [5, 1]) { upstream, token in
      upstream.drop { token.keep($0 < 3) }
    }
  }

  @Test func dropWhileStopsCallingThePredicate() {
    var calls = 0
    var values: [Int] = []
    _ = [1, 5, 1, 1].publisher.eraseToAnyPublisher().drop { value in
      calls += 1
      return value < 3
    }.sink { values.append($0) }
    #expect(values == [5, 1, 1])
    #expect(calls == 2)
  }

  @Test func tryDropWhileHonoursTheContract() {
    checkContract(inputs: [1, 2, 5, 1], expected: [5, 1]) { upstream, token in
      upstream.tryDrop { token.keep($0 < 3) }
    }
  }

  @Test func tryDropWhileFailsWhenThePredicateThrows() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, any Error>()
    upstream.tryDrop { value in
      if value == 2 { throw TestError(code: 2) }
      return true
    }.subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    #expect(recorder.values.isEmpty)
    #expect(recorder.ending == .failed("TestError(2)"))
    #expect(upstream.cancelCount == 1)
  }
}
