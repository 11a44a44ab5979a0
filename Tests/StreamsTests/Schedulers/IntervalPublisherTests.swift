import Streams
import StreamsTesting
import Testing

@Suite struct IntervalPublisherTests {
  @Test func ticksEveryIntervalAndStopsOnCancel() {
    let scheduler = TestScheduler()
    let recorder = RecordingSubscriber<TestScheduler.SchedulerTimeType, Never>()
    scheduler.publisher(every: .seconds(1)).subscribe(recorder)
    scheduler.advance(by: .milliseconds(3_500))
    #expect(recorder.values.map(\.nanoseconds) == [1, 2, 3].map { $0 * 1_000_000_000 })
    recorder.cancel()
    scheduler.advance(by: .seconds(3))
    #expect(recorder.values.count == 3)
  }

  @Test func dropsTicksWithoutDemand() {
    let scheduler = TestScheduler()
    let recorder = RecordingSubscriber<TestScheduler.SchedulerTimeType, Never>(
      initialDemand: .max(1))
    scheduler.publisher(every: .seconds(1)).subscribe(recorder)
    scheduler.advance(by: .seconds(3))
    recorder.request(.max(1))
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values.map(\.nanoseconds) == [1_000_000_000, 4_000_000_000])
    #expect(recorder.violations.isEmpty)
    recorder.cancel()
  }
}
