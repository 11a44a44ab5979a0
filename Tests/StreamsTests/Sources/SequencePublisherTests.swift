import Streams
import StreamsTesting
import Testing

@Suite struct SequencePublisherTests {
  @Test func deliversEveryElementThenFinishes() {
    let recorder = RecordingSubscriber<Int, Never>()
    (1...5).publisher.subscribe(recorder)
    #expect(recorder.values == [1, 2, 3, 4, 5])
    #expect(recorder.completion == .finished)
  }

  @Test func honoursDemandOneAtATime() {
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
    (1...5).publisher.subscribe(recorder)
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2, 3])
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2, 3, 4, 5])
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  @Test func mapTransformsValues() {
    let recorder = RecordingSubscriber<String, Never>(
      initialDemand: .max(1), demandPerValue: .max(1))
    (1...3).publisher.map { $0 * 10 }.map(\.description).subscribe(recorder)
    #expect(recorder.values == ["10", "20", "30"])
    #expect(recorder.completion == .finished)
  }
}
