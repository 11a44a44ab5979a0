import Dispatch
import Foundation
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

  /// An embedded database answers a client's write within the call, yet each `async` write
  /// stays a suspension point: tasks looping over writes share the executor's threads, so every
  /// one of many more tasks than threads starts while the first ones still write.
  @Test func asyncWriteLoopsLetOtherTasksRun() async throws {
    let database = DatasyncDatabase()
    let taskCount = 4 * max(ProcessInfo.processInfo.activeProcessorCount, 2)
    var nodes: [DatasyncNode] = []
    for index in 0..<taskCount {
      // One client each, connected before the loops start: none waits for another's answers.
      let node = try makeApplication("writer\(index)", database: database).datasyncService
        .createManager().nodeThrows(for: "loops/task\(index)")
      try await node.set(0)
      nodes.append(node)
    }
    let started = LockedValue(0)
    let sawEveryTaskStart = try await withThrowingTaskGroup(of: Bool.self) { group in
      for node in nodes {
        group.addTask {
          started.withLock { $0 += 1 }
          for write in 1...5_000 {
            if started.withLock({ $0 }) == taskCount { return true }
            try await node.set(write)
          }
          return false
        }
      }
      return try await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(sawEveryTaskStart == Array(repeating: true, count: taskCount))
  }
}
