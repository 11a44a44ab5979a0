import Foundation
import Testing

@testable import Datasync

@Suite struct DatasyncNodeWritingTests {
  struct Person: Codable, Equatable {
    var name: String
    var age: Int
  }

  @Test func setThenValueReturnsTheWrittenValue() throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try manager.nodeThrows(for: "people/ada")
    try waitForResult { node.set(Person(name: "Ada", age: 36), queue: $0, then: $1) }
    let value = try waitForResult { node.value(queue: $0, then: $1) }
    #expect(value.decoded(as: Person.self) == Person(name: "Ada", age: 36))
    let decoded = try waitForResult { node.decodedValue(as: Person.self, queue: $0, then: $1) }
    #expect(decoded == Person(name: "Ada", age: 36))
  }

  @Test func setReplacesAllChildren() throws {
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "a")
    try waitForResult { node.set(["x": 1, "y": 2], queue: $0, then: $1) }
    try waitForResult { node.set(["z": 3], queue: $0, then: $1) }
    let value = try waitForResult { node.value(queue: $0, then: $1) }
    #expect(value.json == #"{"z":3}"#)
  }

  @Test func mergeKeepsUnspecifiedChildrenAndDeletesExplicitNulls() throws {
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "a")
    try waitForResult { node.set(["x": 1, "y": 2, "z": 3], queue: $0, then: $1) }
    try waitForResult {
      node.merge(with: ["y": 20, "w": 0] as [String: Int?], queue: $0, then: $1)
    }
    #expect(
      try waitForResult { node.value(queue: $0, then: $1) }.json == #"{"w":0,"x":1,"y":20,"z":3}"#)
    try waitForResult { node.merge(with: ["x": nil] as [String: Int?], queue: $0, then: $1) }
    #expect(try waitForResult { node.value(queue: $0, then: $1) }.json == #"{"w":0,"y":20,"z":3}"#)
  }

  @Test func mergeOfANonObjectFailsAndWritesNothing() throws {
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "a")
    try waitForResult { node.set(["x": 1], queue: $0, then: $1) }
    #expect(throws: WebcomError.self) {
      try waitForResult { node.merge(with: "text", queue: $0, then: $1) }
    }
    #expect(try waitForResult { node.value(queue: $0, then: $1) }.json == #"{"x":1}"#)
  }

  @Test func pushKeysAreOrderedChronologically() throws {
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "list")
    var keys: [String] = []
    for index in 0..<50 {
      let child = try #require(node.push(index, queue: makeTestQueue()))
      keys.append(child.key.value)
    }
    #expect(keys == keys.sorted { WebcomKey($0) < WebcomKey($1) })
    let value = try waitForResult { node.value(queue: $0, then: $1) }
    #expect(value.asDictionary()?.keys.sorted() == keys.sorted())
    let values = try #require(value.asDictionary())
    #expect(keys.map { values[$0]?.asInt } == Array(0..<50))
  }

  @Test func incrementFromNullUsesTheStartValue() throws {
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "counter")
    let first = try waitForResult { node.increment(from: 10, by: 5, queue: $0, then: $1) }
    #expect(first.asInt == 15)
    let second = try waitForResult { node.increment(by: -1, queue: $0, then: $1) }
    #expect(second.asInt == 14)
    let half = try waitForResult { node.increment(by: 0.5, queue: $0, then: $1) }
    #expect(half.asDouble == 14.5)
  }

  @Test func clearDeletesTheValue() throws {
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "a/b")
    try waitForResult { node.set("x", queue: $0, then: $1) }
    try waitForResult { node.clear(queue: $0, then: $1) }
    #expect(try waitForResult { node.value(queue: $0, then: $1) }.isNull)
    #expect(try waitForResult { node.parent!.value(queue: $0, then: $1) }.isNull)
  }

  @Test func copyWritesTheSourceValueAtTheDestination() throws {
    let manager = makeApplication().datasyncService.createManager()
    let source = try manager.nodeThrows(for: "source")
    let destination = try manager.nodeThrows(for: "destination")
    try waitForResult { source.set(["a": 1], queue: $0, then: $1) }
    try waitForResult { destination.set(["old": true], queue: $0, then: $1) }
    try waitForResult { source.copy(to: destination, queue: $0, then: $1) }
    #expect(try waitForResult { destination.value(queue: $0, then: $1) }.json == #"{"a":1}"#)
  }

  @Test func transactionCommitsAndAborts() throws {
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "flag")
    let first = try waitForResult {
      node.transaction(DatasyncTransaction.toggle, queue: $0, then: $1)
    }
    #expect(first.committed && first.value.asBool == true)
    let second = try waitForResult {
      node.transaction(DatasyncTransaction.toggle, queue: $0, then: $1)
    }
    #expect(second.committed && second.value.asBool == false)
    let aborted = try waitForResult { node.transaction({ _ in .abort }, queue: $0, then: $1) }
    #expect(!aborted.committed && aborted.value.asBool == false)
    let cleared = try waitForResult { node.transaction({ _ in .clear }, queue: $0, then: $1) }
    #expect(cleared.committed && cleared.value.isNull)
  }

  @Test func asyncTwinsWork() async throws {
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "async")
    try await node.set(["a": 1, "b": 2])
    try await node.merge(with: ["c": 3])
    let child = try await node.push("pushed")
    #expect(try await child.value().asString == "pushed")
    #expect(try await node.relativeNode(for: "counter")!.increment(by: 2).asInt == 2)
    let result = try await node.relativeNode(for: "counter")!.transaction {
      .set(($0.asInt ?? 0) * 10)
    }
    #expect(result.committed && result.value.asInt == 20)
    try await node.relativeNode(for: "a")!.copy(to: node.relativeNode(for: "copy")!)
    let value = try await node.value()
    #expect(value.asDictionary()?["copy"]?.asInt == 1)
    #expect(try await node.relativeNode(for: "c")!.decodedValue(as: Int.self) == 3)
    try await node.clear()
    #expect(try await node.value().isNull)
  }
}
