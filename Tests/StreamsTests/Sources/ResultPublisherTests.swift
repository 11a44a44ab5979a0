import Streams
import StreamsTesting
import Testing

@Suite struct ResultPublisherTests {
  @Test func successWaitsForDemandThenFinishes() {
    let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .none)
    Result<Int, TestError>.success(5).publisher.subscribe(recorder)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [5])
    #expect(recorder.completion == .finished)
  }

  @Test func failureIsDeliveredWithoutDemand() {
    let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .none)
    Result<Int, TestError>.Publisher(.boom).subscribe(recorder)
    #expect(recorder.completion == .failure(.boom))
  }

  @Test func initialisersAndEquality() {
    #expect(Result<Int, TestError>.Publisher(1) == Result.success(1).publisher)
    #expect(Result<Int, TestError>.Publisher(.boom).result == .failure(.boom))
  }
}
