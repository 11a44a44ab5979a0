import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct RecordTests {
  @Test func replaysTheRecordingAsDemandArrives() {
    let record = Record<Int, Never> { recording in
      recording.receive(1)
      recording.receive(2)
      recording.receive(completion: .finished)
    }
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
    record.subscribe(recorder)
    #expect(recorder.values == [1])
    #expect(recorder.completion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .finished)
  }

  @Test func aFailureFollowsTheLastValue() {
    let record = Record<Int, TestError>(output: [1], completion: .failure(.boom))
    let recorder = RecordingSubscriber<Int, TestError>()
    record.subscribe(recorder)
    #expect(recorder.values == [1])
    #expect(recorder.completion == .failure(.boom))
  }

  @Test func everySubscriberGetsTheWholeRecording() {
    let record = Record<String, Never>(output: ["a", "b"], completion: .finished)
    for _ in 0..<2 {
      let recorder = RecordingSubscriber<String, Never>()
      record.subscribe(recorder)
      #expect(recorder.values == ["a", "b"])
    }
  }

  @Test func aCompleteRecordingIgnoresLaterEvents() {
    var recording = Record<Int, TestError>.Recording()
    #expect(recording.completion == .finished)
    recording.receive(1)
    recording.receive(completion: .failure(.boom))
    recording.receive(2)
    recording.receive(completion: .finished)
    #expect(recording.output == [1])
    #expect(recording.completion == .failure(.boom))
  }

  @Test func encodesInCombinesFormAndDecodesBack() throws {
    let record = Record<Int, CodableFailure>(
      output: [1, 2], completion: .failure(CodableFailure(code: 4)))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(record), as: UTF8.self)
    #expect(
      json
        == #"{"recording":{"completion":{"error":{"code":4},"success":false},"output":[1,2]}}"#)
    let decoded = try JSONDecoder().decode(
      Record<Int, CodableFailure>.self, from: Data(json.utf8))
    #expect(decoded.recording.output == [1, 2])
    #expect(decoded.recording.completion == .failure(CodableFailure(code: 4)))
  }
}

/// A failure that can be encoded.
struct CodableFailure: Error, Codable, Equatable {
  let code: Int
}
