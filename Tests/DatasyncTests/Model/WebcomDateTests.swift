import Foundation
import Testing

@testable import Datasync

@Suite struct WebcomDateTests {
  @Test func millisecondPrecision() {
    let date = WebcomDate(Date(timeIntervalSince1970: 1.2345))
    #expect(
      date.value == Date(timeIntervalSince1970: 1.235)
        || date.value == Date(timeIntervalSince1970: 1.234))
    #expect(date.milliseconds == 1_235 || date.milliseconds == 1_234)
    #expect(WebcomDate(date.value) == date)
    #expect(!date.isBackEndCurrentDate)
  }

  @Test func encodesAsMillisecondsWhateverTheStrategy() throws {
    struct Event: Codable, Equatable { var at: WebcomDate }
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let event = Event(at: WebcomDate(Date(timeIntervalSince1970: 1_700_000_000.5)))
    #expect(String(decoding: try encoder.encode(event), as: UTF8.self) == "{\"at\":1700000000500}")
    let model = try JSONValue.fromEncodable(event, encoder: encoder)
    #expect(model["at"] == .int(1_700_000_000_500))
    #expect(try model.decoded(as: Event.self, decoder: JSONDecoder()) == event)
    #expect(
      try JSONDecoder().decode(WebcomDate.self, from: Data("1.5e3".utf8)).milliseconds == 1_500)
  }

  @Test func backEndCurrentDatePlaceholder() throws {
    struct Event: Codable { var at: WebcomDate }
    let placeholder = WebcomDate.backEndCurrentDate
    #expect(placeholder.isBackEndCurrentDate)
    #expect(placeholder == .backEndCurrentDate)
    #expect(abs(placeholder.value.timeIntervalSinceNow) < 60)
    let data = try JSONEncoder().encode(Event(at: placeholder))
    #expect(String(decoding: data, as: UTF8.self) == "{\"at\":{\".sv\":\"timestamp\"}}")
    let model = try JSONValue.fromEncodable(Event(at: placeholder), encoder: JSONEncoder())
    #expect(model.containsServerValues)
    #expect(try model.decoded(as: Event.self, decoder: JSONDecoder()).at.isBackEndCurrentDate)
    let resolved = model.resolvingServerValues(now: Date(timeIntervalSince1970: 1_000))
    #expect(
      try resolved.decoded(as: Event.self, decoder: JSONDecoder()).at
        == WebcomDate(Date(timeIntervalSince1970: 1_000)))
    #expect(throws: (any Error).self) {
      try JSONDecoder().decode(WebcomDate.self, from: Data("{\".sv\":\"other\"}".utf8))
    }
  }
}
