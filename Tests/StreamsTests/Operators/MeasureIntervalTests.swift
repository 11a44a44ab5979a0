import Streams
import StreamsTesting
import Testing

@Suite struct MeasureIntervalTests {
  @Test func measuresTimeBetweenValues() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>()
    subject.measureInterval(using: scheduler).subscribe(recorder)
    scheduler.advance(by: .milliseconds(300))
    subject.send(1)
    scheduler.advance(by: .seconds(2))
    subject.send(2)
    subject.send(3)
    #expect(recorder.values == [.milliseconds(300), .seconds(2), .zero])
  }

  @Test func theDemandForAValueIsRequestedFromTheUpstreamAndNothingComesAfterCancel() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>(
      initialDemand: .max(1), demandPerValue: .max(1))
    upstream.measureInterval(using: scheduler).subscribe(recorder)
    scheduler.advance(by: .seconds(2))
    #expect(upstream.send(1) == [.none])
    #expect(upstream.demandLog == [.max(1), .max(1)])
    #expect(recorder.values == [.seconds(2)])
    recorder.cancel()
    #expect(upstream.cancelCount == 1)
  }

}
