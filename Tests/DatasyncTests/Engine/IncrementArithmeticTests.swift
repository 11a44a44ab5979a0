import Foundation
import Testing

@testable import Datasync

/// Increments at the edges of the number ranges: integers past `Int64`'s range continue as
/// floating numbers, and a sum that is not finite is refused with nothing written.
@Suite struct IncrementArithmeticTests {
  let queue = DispatchQueue(label: "test.increment-arithmetic")
  let database = DatasyncDatabase()
  let manager: DatasyncManager

  init() {
    manager = makeApplication(database: database).datasyncService.createManager()
  }

  private func counter(at value: JSONValue) throws -> DatasyncNode {
    let node = try manager.nodeThrows(for: "counter")
    // Subscribed, so that the cache keeps the counter: the tests compare it with the result.
    node.subscribe(to: .valueChange, queue: queue) { _ in }
    switch value {
    case .int(let integer): try waitForResult { node.set(integer, queue: $0, then: $1) }
    case .double(let double): try waitForResult { node.set(double, queue: $0, then: $1) }
    default: Issue.record("a counter starts at a number, not \(value)")
    }
    #expect(database.value(at: try DatasyncPath(parsing: "counter")) == value)
    return node
  }

  @Test(arguments: [
    // 2^63 and -2^63 - 1 as doubles, which round to ±2^63.
    (Int64.max, 1.0, JSONValue.double(0x1p63)),
    (Int64.min, -1.0, .double(-0x1p63)),
    (Int64.max - 1, 1.0, .int(.max)),
    (Int64.min, 1.0, .int(.min + 1)),
  ])
  func integersPastInt64ContinueAsDoubles(_ start: Int64, _ step: Double, _ expected: JSONValue)
    throws
  {
    let node = try counter(at: .int(start))
    let result = try waitForResult { node.increment(by: step, queue: $0, then: $1) }
    #expect(result.tree == expected)
    #expect(node.cachedValue.tree == expected)
    #expect(database.value(at: try DatasyncPath(parsing: "counter")) == expected)
  }

  @Test func aLargeStepOnANullNodeStartsFromTheStartValue() throws {
    let node = try manager.nodeThrows(for: "fresh")
    let result = try waitForResult {
      node.increment(from: 9.3e18, by: 1, queue: $0, then: $1)
    }
    #expect(result.asDouble == 9.3e18 + 1)
  }

  @Test(arguments: [
    (JSONValue.double(1.7e308), 1.7e308), (.double(-1.7e308), -1.7e308),
    (.double(.greatestFiniteMagnitude), Double.greatestFiniteMagnitude),
  ])
  func anInfiniteSumIsRefusedAndNothingIsWritten(_ start: JSONValue, _ step: Double) throws {
    let node = try counter(at: start)
    let recorder = EventRecorder()
    let subscription = node.subscribe(to: .valueChange, queue: queue, onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))
    let error = #expect(throws: WebcomError.self) {
      try waitForResult { node.increment(by: step, queue: $0, then: $1) }
    }
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("/counter") == true)
    queue.sync {}
    #expect(recorder.recorded.count == 1)
    #expect(node.cachedValue.tree == start)
    #expect(database.value(at: try DatasyncPath(parsing: "counter")) == start)
    withExtendedLifetime(subscription) {}
  }
}
