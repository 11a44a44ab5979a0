import Datasync
import DatasyncStreams
import Streams
import Testing

@Suite(.timeLimit(.minutes(1))) struct OperationPublisherTests {
  @Test func operationsAreLazyAndAnswerOnce() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "ops")).streams
    let write = node.set(Message(author: "a", text: "1"))
    #expect(try await node.wrapped.value().isNull)
    try await write.value
    #expect(try await node.decodedValue(as: Message.self).value == Message(author: "a", text: "1"))

    try await node.merge(with: ["text": "2"]).value
    #expect(
      try await node.value().value.decoded(as: Message.self) == Message(author: "a", text: "2"))

    let counter = try #require(node.relativeNode(for: "count"))
    #expect(try await counter.increment(by: 2).value.asInt == 2)
    let result = try await counter.transaction { current in .set((current.asInt ?? 0) * 10) }.value
    #expect(result.committed)
    #expect(result.value.asInt == 20)

    let list = try #require(node.relativeNode(for: "list"))
    let child = try await list.push("hello").value
    #expect(child.parent == list)
    #expect(try await child.value().value.asString == "hello")

    let copy = try #require(node.relativeNode(for: "copy"))
    try await child.copy(to: copy).value
    #expect(try await copy.value().value.asString == "hello")

    try await node.clear().value
    #expect(try await node.value().value.isNull)
  }

  @Test func failuresArriveAsWebcomErrors() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "bad")).streams
    try await node.set("text").value
    await #expect(throws: WebcomError.self) { try await node.increment().value }
    await #expect(throws: WebcomError.self) { try await node.set(Double.nan).value }
  }

  @Test func navigationMirrorsTheNode() throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "a/b")).streams
    #expect(node.path == "/a/b")
    #expect(node.key == "b")
    #expect(node.parent?.path == "/a")
    #expect((node / "../c")?.path == "/a/c")
    #expect(node.relativeNode(for: "bad#key") == nil)
    #expect(throws: WebcomError.self) { try node.relativeNodeThrows(for: "bad#key") }
    #expect(node == manager.node(for: "a/b")!.streams)
    #expect(Set([node, node.wrapped.streams]).count == 1)
    #expect(node.createChild().parent == node)
  }
}
