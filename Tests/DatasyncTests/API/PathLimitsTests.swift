import Foundation
import Testing

@testable import Datasync

/// Every kind of write keeps the full stored path of every value within 32 levels and 768 UTF-8
/// bytes: over a limit, the write fails with `invalidPath` or `invalidValue` naming the culprit,
/// nothing is stored and no local event is raised.
@Suite struct PathLimitsTests {
  let queue = DispatchQueue(label: "test.path-limits")
  let database = DatasyncDatabase()
  let manager: DatasyncManager
  let recorder = EventRecorder()
  /// A node 31 levels deep (room for one more level).
  let deep: DatasyncNode
  /// A node 32 levels deep: it cannot have children.
  let deepest: DatasyncNode
  /// A node whose path is 760 UTF-8 bytes long.
  let long: DatasyncNode

  init() throws {
    manager = makeApplication(database: database).datasyncService.createManager()
    deep = try manager.nodeThrows(for: (1...31).map { "k\($0)" }.joined(separator: "/"))
    deepest = try #require(deep.relativeNode(for: "k32"))
    long = try manager.nodeThrows(for: "l/" + String(repeating: "p", count: 757))
    #expect(long.path.utf8.count == 760)
    let root = try manager.nodeThrows(for: "/")
    root.subscribe(to: .valueChange, queue: queue, onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))
  }

  /// Expects the write to fail with `code`, its message naming `culprit`, nothing stored and no
  /// event.
  private func expectRefused(
    _ code: WebcomError.Code, naming culprit: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ start: (DispatchQueue, @escaping (WebcomResult<Void>) -> Void) -> Void
  ) {
    do {
      try waitForResult(start)
      Issue.record("expected \(code)", sourceLocation: sourceLocation)
    } catch let error as WebcomError {
      #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
      #expect(error.message.contains(culprit), "\(error)", sourceLocation: sourceLocation)
    } catch {
      Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
    expectNothingStored(sourceLocation: sourceLocation)
  }

  private func expectNothingStored(sourceLocation: SourceLocation = #_sourceLocation) {
    queue.sync {}
    #expect(recorder.recorded.count == 1, sourceLocation: sourceLocation)
    #expect(database.value(at: .root) == .null, sourceLocation: sourceLocation)
    #expect(manager.node(for: "/")!.cachedValue.isNull, sourceLocation: sourceLocation)
  }

  private static let threeLevels = ["a": ["b": ["c": 1]]]

  @Test func setAndMergeCountTheLevelsOfTheValue() throws {
    let culprit = deep.path + "/a/b"
    expectRefused(.invalidValue, naming: culprit) {
      deep.set(Self.threeLevels, queue: $0, then: $1)
    }
    expectRefused(.invalidValue, naming: culprit) {
      deep.parent!.merge(with: ["k31": Self.threeLevels], queue: $0, then: $1)
    }
    expectRefused(.invalidPath, naming: deep.path + "/a/b") {
      deep.merge(with: ["a/b": 1], queue: $0, then: $1)
    }
    expectRefused(.invalidValue, naming: culprit) {
      deep.set(Self.threeLevels, at: .onDisconnection, queue: $0, then: $1)
    }
    // One level more is fine.
    try waitForResult { deep.set(["a": 1], queue: $0, then: $1) }
    #expect(database.value(at: deep.location.child("a")) == .int(1))
  }

  @Test func setAndMergeCountTheBytesOfTheFullPath() throws {
    let key = String(repeating: "x", count: 23)
    expectRefused(.invalidValue, naming: long.path + "/" + key) {
      long.set([key: 1], queue: $0, then: $1)
    }
    expectRefused(.invalidPath, naming: key) {
      long.parent!.merge(with: [long.key.value + "/" + key: 1], queue: $0, then: $1)
    }
    let root = try manager.nodeThrows(for: "l")
    let longKey = String(repeating: "y", count: 768)
    expectRefused(.invalidPath, naming: "/l/" + longKey) {
      root.merge(with: [longKey: 1], queue: $0, then: $1)
    }
    // 768 bytes in all is fine.
    try waitForResult { long.set([String(repeating: "z", count: 7): 1], queue: $0, then: $1) }
  }

  @Test func aNodeAtTheLimitsCannotHaveChildren() throws {
    let child = deepest.createChild()
    #expect(child.location.depth == 33)
    #expect(child.parent == deepest)
    let target = CallbackCounter()
    #expect(deepest.push("x", queue: queue, then: target.record) == nil)
    #expect(target.wait(for: 1))
    #expect(target.failed.map(\.code) == [.invalidPath])
    #expect(long.push("x", queue: queue) == nil)
    for write: (DatasyncNode, DispatchQueue, @escaping (WebcomResult<Void>) -> Void) -> Void in [
      { $0.set("x", queue: $1, then: $2) },
      { $0.clear(queue: $1, then: $2) },
      { $0.merge(with: ["a": 1], queue: $1, then: $2) },
      { $0.set("x", at: .nextDisconnection, queue: $1, then: $2) },
    ] {
      expectRefused(.invalidPath, naming: child.path) { write(child, $0, $1) }
      expectRefused(.invalidPath, naming: long.path) { write(long.createChild(), $0, $1) }
    }
    do {
      _ = try waitForResult { child.increment(queue: $0, then: $1) }
      Issue.record("incremented")
    } catch let error as WebcomError {
      #expect(error.code == .invalidPath)
    }
    expectNothingStored()
    #expect(try waitForResult { child.value(queue: $0, then: $1) }.isNull)
  }

  @Test func transactionsCopiesAndIncrementsAreChecked() throws {
    do {
      _ = try waitForResult {
        deep.transaction({ _ in .set(Self.threeLevels) }, queue: $0, then: $1)
      }
      Issue.record("committed")
    } catch let error as WebcomError {
      #expect(error.code == .invalidValue)
      #expect(error.message.contains(deep.path + "/a/b"), "\(error)")
    }
    expectNothingStored()

    let source = try manager.nodeThrows(for: "source")
    try waitForResult { source.set(Self.threeLevels, queue: $0, then: $1) }
    queue.sync {}
    recorder.take()
    let copies = CallbackCounter()
    source.copy(to: deep, queue: queue, then: copies.record)
    #expect(copies.wait(for: 1))
    #expect(copies.failed.map(\.code) == [.invalidValue])
    queue.sync {}
    #expect(recorder.recorded.isEmpty)
    #expect(database.value(at: deep.location) == .null)

    do {
      _ = try waitForResult {
        deepest.createChild().transaction({ _ in .set(1) }, queue: $0, then: $1)
      }
      Issue.record("committed")
    } catch let error as WebcomError {
      #expect(error.code == .invalidPath)
    }
  }

  @Test func theAsyncFormsThrowTheSameErrors() async throws {
    await #expect(throws: WebcomError.self) { try await deep.set(Self.threeLevels) }
    await #expect(throws: WebcomError.self) { try await deepest.push("x") }
    await #expect(throws: WebcomError.self) { try await deep.merge(with: ["a/b": 1]) }
    await #expect(throws: WebcomError.self) { try await deepest.createChild().increment() }
    #expect(database.value(at: .root) == .null)
  }
}
