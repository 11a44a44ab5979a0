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
}
