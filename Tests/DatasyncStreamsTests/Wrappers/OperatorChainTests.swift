import Datasync
import DatasyncStreams
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct OperatorChainTests {
  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func increment() { lock.withLock { value += 1 } }
  }

  @Test func childrenCountThroughRemoveDuplicatesAndDebounceOnVirtualTime() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "rooms/chain/messages"))
    _ = try await seedMessages(3, at: node)
    let scheduler = TestScheduler()
    let emissions = Counter()
    let recorder = RecordingSubscriber<Int, WebcomError>(clock: scheduler.clock)
    node.streams.children(as: Message.self)
      .handleEvents(receiveOutput: { _ in emissions.increment() })
      .map(\.count)
      .removeDuplicates()
      .debounce(for: .milliseconds(200), scheduler: scheduler)
      .subscribe(recorder)

    // Emitted, and past the debounce (which schedules its delivery on the test scheduler) before
    // virtual time moves: the emission runs on another thread.
    #expect(await eventually { emissions.count == 1 && scheduler.pendingActionCount == 1 })
    scheduler.advance(by: .milliseconds(200))
    #expect(recorder.values == [3])

    // One emission per push: the second waits for the first's emission, or the two writes
    // coalesce into one when the stream's queue has not started delivering the first (its
    // acknowledgement can come before that).
    _ = try await node.push(Message(author: "a", text: "4"))
    #expect(await eventually { emissions.count == 2 })
    _ = try await node.push(Message(author: "a", text: "5"))
    #expect(await eventually { emissions.count == 3 && scheduler.pendingActionCount == 2 })
    scheduler.advance(by: .milliseconds(100))
    #expect(recorder.values == [3])
    scheduler.advance(by: .milliseconds(100))
    #expect(recorder.values == [3, 5])

    try await (node / "m000")!.set(Message(author: "edited", text: "0"))
    #expect(await eventually { emissions.count == 4 })
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [3, 5])

    let times = recorder.timedEvents.compactMap { entry -> Int? in
      if case .value = entry.event { return entry.time }
      return nil
    }
    #expect(times == [200_000_000, 400_000_000])
    #expect(recorder.violations.isEmpty)
    recorder.cancel()
  }

  @Test func childrenThroughReceiveOnAQueueStartWithTheInitialLoadAndFollowChanges() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "rooms/receive-on/messages"))
    _ = try await seedMessages(2, at: node)
    let queue = DispatchQueue(label: "test.receive-on")
    let recorder = RecordingSubscriber<Int, WebcomError>()
    // The subscription reaches the recorder through the queue: the stream holds its initial
    // load until the recorder's demand arrives from there.
    node.streams.children(as: Message.self).map(\.count).receive(on: queue).subscribe(recorder)
    #expect(await eventually { recorder.values == [2] })
    _ = try await node.push(Message(author: "a", text: "3"))
    #expect(await eventually { recorder.values == [2, 3] })
    #expect(recorder.violations.isEmpty)
    recorder.cancel()
  }
}
