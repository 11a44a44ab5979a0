import Streams
import StreamsTesting
import Testing

@Suite struct MapKeyPathTests {
  struct Point: Equatable {
    let x: Int
    let y: Int
    let z: Int
  }

  @Test func keyPathsSelectOneTwoOrThreeProperties() {
    let points = [Point(x: 1, y: 2, z: 3), Point(x: 4, y: 5, z: 6)]
    let recorder = RecordingSubscriber<Int, Never>()
    points.publisher.eraseToAnyPublisher().map(\.y).subscribe(recorder)
    #expect(recorder.values == [2, 5])

    var pairs: [String] = []
    _ = points.publisher.eraseToAnyPublisher().map(\.x, \.z).sink {
      pairs.append("\($0.0)-\($0.1)")
    }
    #expect(pairs == ["1-3", "4-6"])

    var triples: [Int] = []
    _ = points.publisher.eraseToAnyPublisher().map(\.x, \.y, \.z).sink {
      triples.append($0.0 + $0.1 + $0.2)
    }
    #expect(triples == [6, 15])
  }

  @Test func keyPathMapsHonourTheContract() {
    checkContract(inputs: [1, 22], expected: [1, 2]) { upstream, token in
      upstream.map { token.keep(String($0)) }.map(\.count)
    }
    checkContract(inputs: [1, 22], expected: [2, 3]) { upstream, token in
      upstream.map { token.keep(String($0)) }.map(\.count, \.isEmpty).map { $0.0 + 1 }
    }
    checkContract(inputs: [1, 22], expected: [3, 5]) { upstream, token in
      upstream.map { token.keep(String($0)) }.map(\.count, \.isEmpty, \.count).map {
        $0.0 + $0.2 + 1
      }
    }
  }
}
