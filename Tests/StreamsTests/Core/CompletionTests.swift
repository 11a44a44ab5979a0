import Foundation
import Streams
import Testing

@Suite struct CompletionTests {
  @Test func encodesAsCombineDoes() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let finished = Subscribers.Completion<CodableFailure>.finished
    let failed = Subscribers.Completion<CodableFailure>.failure(CodableFailure(code: 2))
    #expect(String(decoding: try encoder.encode(finished), as: UTF8.self) == #"{"success":true}"#)
    #expect(
      String(decoding: try encoder.encode(failed), as: UTF8.self)
        == #"{"error":{"code":2},"success":false}"#)
  }

  @Test func decodesBothCasesAndRejectsAFailureWithoutItsError() throws {
    let decoder = JSONDecoder()
    typealias Completion = Subscribers.Completion<CodableFailure>
    #expect(try decoder.decode(Completion.self, from: Data(#"{"success":true}"#.utf8)) == .finished)
    #expect(
      try decoder.decode(Completion.self, from: Data(#"{"success":false,"error":{"code":5}}"#.utf8))
        == .failure(CodableFailure(code: 5)))
    #expect(throws: DecodingError.self) {
      try decoder.decode(Completion.self, from: Data(#"{"success":false}"#.utf8))
    }
  }
}
