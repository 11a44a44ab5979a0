import Dispatch
import Testing

@testable import Datasync

@Suite struct CallbackTargetTests {
  /// A target with a queue calls `then` there, never on the thread that delivers the result.
  @Test func aTargetWithAQueueCallsThenOnItsQueue() {
    let queue = DispatchQueue(label: "callback-target")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let calls = LockedValue<[Bool]>([])
    let target = CallbackTarget<Int>(queue: queue) { result in
      let onQueue = DispatchQueue.getSpecific(key: key) == true
      calls.withLock { $0.append(onQueue && (try? result.get()) == 7) }
    }
    queue.sync {
      target.deliver(.success(7))
      #expect(calls.withLock { $0.isEmpty }, "then runs after the current work on its queue")
    }
    queue.sync {}
    #expect(calls.withLock { $0 } == [true])
  }

  /// A target without a queue, as the `async` forms make them, calls `then` before `deliver`
  /// returns, on the delivering thread: the waiting task is resumed through no queue.
  @Test func aTargetWithoutAQueueCallsThenAtOnce() {
    let calls = LockedValue<[Int]>([])
    let target = CallbackTarget<Int>(queue: nil) { result in
      calls.withLock { $0.append((try? result.get()) ?? -1) }
    }
    target.deliver(.success(3))
    #expect(calls.withLock { $0 } == [3])
    target.deliver(.failure(WebcomError(.disconnected, "lost")))
    #expect(calls.withLock { $0 } == [3, -1])
  }
}
