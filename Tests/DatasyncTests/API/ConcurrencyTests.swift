import Foundation
import Testing

@testable import Datasync

@Suite struct ConcurrencyTests {
  @Test func concurrentIncrementsAllCount() throws {
    let manager = makeApplication().datasyncService.createManager()
    let counter = try manager.nodeThrows(for: "counter")
    let group = DispatchGroup()
    let answers = DispatchQueue(label: "test.answers")
    for _ in 0..<8 {
      group.enter()
      Thread.detachNewThread {
        for _ in 0..<1_000 {
          group.enter()
          counter.increment(queue: answers) { _ in group.leave() }
        }
        group.leave()
      }
    }
    #expect(group.wait(timeout: .now() + 60) == .success)
    #expect(try waitForResult { counter.value(queue: $0, then: $1) }.asInt == 8_000)
  }

  @Test func concurrentPushesGiveDistinctOrderedKeys() throws {
    let manager = makeApplication().datasyncService.createManager()
    let list = try manager.nodeThrows(for: "list")
    let group = DispatchGroup()
    let answers = DispatchQueue(label: "test.answers")
    let pushed = Shared<[[String]]>(Array(repeating: [], count: 4))
    for thread in 0..<4 {
      group.enter()
      Thread.detachNewThread {
        var keys: [String] = []
        for index in 0..<1_000 {
          group.enter()
          let child = list.push(index, queue: answers) { _ in group.leave() }
          keys.append(child!.key.value)
        }
        pushed.update { $0[thread] = keys }
        group.leave()
      }
    }
    #expect(group.wait(timeout: .now() + 60) == .success)
    let value = try waitForResult { list.value(queue: $0, then: $1) }
    let stored = try #require(value.asDictionary())
    #expect(stored.count == 4_000)
    let all = pushed.current
    #expect(Set(all.joined()).count == 4_000)
    #expect(Set(all.joined()) == Set(stored.keys))
    for keys in all {
      #expect(keys == keys.sorted { WebcomKey($0) < WebcomKey($1) })
      #expect(keys.map { stored[$0]?.asInt } == Array(0..<1_000))
    }
  }

  @Test func concurrentTransactionsAllCommit() throws {
    let manager = makeApplication().datasyncService.createManager()
    let counter = try manager.nodeThrows(for: "transactions")
    let group = DispatchGroup()
    let answers = DispatchQueue(label: "test.answers")
    let failures = Shared<[String]>([])
    for _ in 0..<4 {
      group.enter()
      Thread.detachNewThread {
        for _ in 0..<250 {
          group.enter()
          counter.transaction({ .set(($0.asInt ?? 0) + 1) }, queue: answers) { result in
            if case .success(let outcome) = result, outcome.committed {
            } else {
              failures.update { $0.append("\(result)") }
            }
            group.leave()
          }
        }
        group.leave()
      }
    }
    #expect(group.wait(timeout: .now() + 60) == .success)
    #expect(
      failures.current.isEmpty,
      "\(failures.current.count) failed, first: \(failures.current.first ?? "")")
    #expect(try waitForResult { counter.value(queue: $0, then: $1) }.asInt == 1_000)
  }

  @Test func aClientsOwnTransactionsDoNotConflictAtTheBackEnd() throws {
    let manager = makeApplication().datasyncService.createManager()
    let counter = try manager.nodeThrows(for: "counter")
    let nested = CallbackCounter()
    let calls = Shared(0)
    // Each time the outer function runs (30 times), another transaction of the same client
    // changes the value first: the outer one computes again at once rather than sending a
    // compare-and-set bound to fail, so it never uses up its 25 attempts.
    let outcome = try waitForResult { queue, then in
      counter.transaction(
        { current in
          if calls.update({
            $0 += 1
            return $0
          }) <= 30 {
            counter.transaction({ .set(($0.asInt ?? 0) + 1) }, queue: queue, then: nested.record)
          }
          return .set((current.asInt ?? 0) + 1)
        }, queue: queue, then: then)
    }
    #expect(outcome.committed)
    #expect(outcome.value.asInt == 31)
    #expect(nested.wait(for: 30))
    #expect(nested.failed.isEmpty)
    #expect(calls.current == 31)
  }

  @Test func subscribersOnManyThreadsSeeEveryWriteInOrder() throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try manager.nodeThrows(for: "shared")
    let recorders = (0..<4).map { _ in EventRecorder() }
    let subscriptions = recorders.enumerated().map { index, recorder in
      node.subscribe(
        to: .valueChange, stores: false, queue: DispatchQueue(label: "test.sub\(index)"),
        onEvent: recorder.record)
    }
    for recorder in recorders { #expect(recorder.wait(forCount: 1)) }
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for index in 0..<200 {
        node.relativeNode(for: "t\(thread)")!.set(index, queue: DispatchQueue(label: "w"))
      }
    }
    for recorder in recorders {
      #expect(
        recorder.wait { events in
          events.last.map { event in
            (0..<4).allSatisfy { event.value.asDictionary()?["t\($0)"]?.asInt == 199 }
          } ?? false
        })
      var last = [Int](repeating: -1, count: 4)
      for event in recorder.recorded.dropFirst() {
        for thread in 0..<4 {
          let current = event.value.asDictionary()?["t\(thread)"]?.asInt ?? -1
          #expect(current >= last[thread])
          last[thread] = current
        }
      }
    }
    withExtendedLifetime(subscriptions) {}
  }
}
