import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct CodingTests {
  struct Item: Codable, Equatable {
    let id: Int
  }

  @Test func encodeThenDecodeRoundTrips() {
    checkContract(inputs: [1, 2, 3], expected: [1, 2, 3]) { upstream, token in
      upstream.map { token.keep(Item(id: $0)) }
        .encode(encoder: JSONEncoder())
        .decode(type: Item.self, decoder: JSONDecoder())
        .map(\.id)
    }
  }

  @Test func encodeProducesTheEncodersOutput() {
    var encoded: [String] = []
    _ = [Item(id: 4)].publisher.encode(encoder: JSONEncoder())
      .sink(
        receiveCompletion: { _ in },
        receiveValue: { encoded.append(String(decoding: $0, as: UTF8.self)) })
    #expect(encoded == [#"{"id":4}"#])
  }

  @Test func decodingErrorFailsAndCancelsUpstream() {
    let upstream = ManualPublisher<Data, Never>()
    let recorder = RecordingSubscriber<Item, any Error>()
    upstream.decode(type: Item.self, decoder: JSONDecoder()).subscribe(recorder)
    upstream.send(Data(#"{"id":1}"#.utf8))
    upstream.send(Data("not json".utf8))
    upstream.send(Data(#"{"id":2}"#.utf8))
    #expect(recorder.values == [Item(id: 1)])
    #expect(
      recorder.completion.map {
        if case .failure(let error) = $0 { error is DecodingError } else { false }
      } == true)
    #expect(upstream.cancelCount == 1)
  }

  @Test func propertyListCodersAreTopLevelCoders() throws {
    struct Point: Codable, Equatable {
      let x: Int
      let y: Int
    }
    let recorder = RecordingSubscriber<Point, any Error>()
    [Point(x: 1, y: 2)].publisher
      .encode(encoder: PropertyListEncoder())
      .decode(type: Point.self, decoder: PropertyListDecoder())
      .subscribe(recorder)
    #expect(recorder.values == [Point(x: 1, y: 2)])
    #expect(recorder.completion != nil)
  }
}
