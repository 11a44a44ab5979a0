import Foundation
import Testing

@testable import Datasync

@Suite struct DurableDatabaseTests {
  /// Sends one write as a client and returns the back end's answer.
  private func write(_ database: DatasyncDatabase, _ operation: WriteOperation) -> Result<
    WriteOperation?, HostedRefusal
  > {
    database.hostedWrite(operation, token: nil)
  }

  @Test func everyAcknowledgedWriteIsThereAfterReopening() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("app.sqlite")
    do {
      let database = try DatasyncDatabase(path: file)
      _ = try write(
        database, .set(try datasyncPath("/rooms/a"), try jsonValue(#"{"x": 1, "y": [1, 2]}"#))
      ).get()
      _ = try write(
        database,
        .merge(
          try datasyncPath("/rooms"),
          try JSONValue.parsingMergeBody(Array(#"{"a/x": null, "b/name": "B"}"#.utf8)))
      ).get()
      _ = try write(database, .increment(try datasyncPath("/count"), start: 0, step: 3)).get()
      _ = try write(
        database,
        .set(
          try datasyncPath("/rooms/a/at"),
          try JSONValue.parsingRequestBody(Array(#"{".sv": "timestamp"}"#.utf8)))
      ).get()
      let stored = database.value(at: .root)
      database.close()
      let reopened = try DatasyncDatabase(path: file)
      #expect(reopened.value(at: .root) == stored)
      #expect(reopened.value(at: try datasyncPath("/rooms/b/name")) == .string("B"))
      #expect(reopened.value(at: try datasyncPath("/rooms/a/x")) == .null)
      #expect(reopened.value(at: try datasyncPath("/count")) == .int(3))
      if case .int = reopened.value(at: try datasyncPath("/rooms/a/at")) {
      } else {
        Issue.record("the server timestamp was not stored resolved")
      }
      reopened.close()
    }
  }

  @Test func aWriteWhoseCommitFailsIsRefusedAndNotApplied() throws {
    let directory = try TemporaryDirectory()
    let database = try DatasyncDatabase(path: directory.path("app.sqlite"))
    defer { database.close() }
    _ = try write(database, .set(try datasyncPath("/a"), .int(1))).get()
    try #require(database.store).injectFailure(
      beforeChange: 1, error: WebcomError(.storageFailed, "the disk is full"))
    let refused = write(
      database,
      .merge(
        try datasyncPath("/"), try JSONValue.parsingMergeBody(Array(#"{"a": 2, "b": 3}"#.utf8))))
    guard case .failure(let refusal) = refused else {
      Issue.record("the write was acknowledged")
      return
    }
    #expect(refusal.error.code == .storageFailed)
    #expect(database.value(at: .root) == (try jsonValue(#"{"a": 1}"#)))
    database.close()
    let reopened = try DatasyncDatabase(path: directory.path("app.sqlite"))
    #expect(reopened.value(at: .root) == (try jsonValue(#"{"a": 1}"#)))
    reopened.close()
  }

  @Test func writesAfterCloseAreRefusedAndReadsStillAnswer() throws {
    let directory = try TemporaryDirectory()
    let database = try DatasyncDatabase(path: directory.path("app.sqlite"))
    _ = try write(database, .set(try datasyncPath("/a"), .int(1))).get()
    database.close()
    database.close()
    guard case .failure(let refusal) = write(database, .set(try datasyncPath("/a"), .int(2))) else {
      Issue.record("a write after close was acknowledged")
      return
    }
    #expect(refusal.error.code == .storageFailed)
    #expect(try database.hostedRead(try datasyncPath("/a"), token: nil).get() == .int(1))
  }

  @Test func disconnectionWritesAreCommittedToo() async throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("app.sqlite")
    let database = try DatasyncDatabase(path: file)
    let client = NSObject()
    let identifier = ObjectIdentifier(client)
    database.attach(identifier) { _ in }
    database.handle(
      .writeOnDisconnection(
        1, .set(try datasyncPath("/presence/me"), .bool(false)), repeating: false),
      from: identifier)
    _ = try write(database, .set(try datasyncPath("/presence/me"), .bool(true))).get()
    database.detach(identifier)
    database.close()
    let reopened = try DatasyncDatabase(path: file)
    #expect(reopened.value(at: try datasyncPath("/presence/me")) == .bool(false))
    reopened.close()
    withExtendedLifetime(client) {}
  }

  @Test func aFileOpenInOneDatabaseCannotOpenInAnother() throws {
    let directory = try TemporaryDirectory()
    let database = try DatasyncDatabase(path: directory.path("app.sqlite"))
    defer { database.close() }
    #expect(throws: WebcomError.self) { try DatasyncDatabase(path: directory.path("app.sqlite")) }
    let notADatabase = directory.path("text.sqlite")
    try Data("hello, this is not a database file at all".utf8).write(
      to: URL(fileURLWithPath: notADatabase))
    #expect(throws: WebcomError.self) { try DatasyncDatabase(path: notADatabase) }
  }
}
