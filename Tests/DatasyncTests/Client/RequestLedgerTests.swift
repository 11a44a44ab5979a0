import Testing

@testable import Datasync

@Suite struct RequestLedgerTests {
  private static func set(_ key: WebcomKey, _ value: Int64) -> WriteOperation {
    .set(DatasyncPath(validatedKeys: ["a", key]), .int(value))
  }

  private static func lines(_ effects: [ClientEffect]) -> [String] {
    effects.map { effect in
      switch effect {
      case .send(.write(let identifier, let operation)):
        "write \(identifier) \(operation.path.string)"
      case .send(.read(let identifier, let path)): "read \(identifier) \(path.string)"
      default: "other"
      }
    }
  }

  @Test func queuedWritesAreSentFromThePendingWritesInOrderWithTheOtherRequests() {
    var pending = PendingWrites()
    var ledger = RequestLedger()
    var effects: [ClientEffect] = []
    pending.append(PendingWrites.Write(identifier: 1, operation: Self.set("x", 1)))
    ledger.queueWrite(1)
    ledger.send(.read(2, DatasyncPath(validatedKeys: ["b"])), isConnected: false, into: &effects)
    ledger.send(.write(3, Self.set("y", 2)), isConnected: false, into: &effects)
    pending.append(PendingWrites.Write(identifier: 4, operation: Self.set("z", 3)))
    ledger.queueWrite(4)
    #expect(effects.isEmpty)
    ledger.sendQueued(pending: pending, into: &effects)
    #expect(Self.lines(effects) == ["write 1 /a/x", "read 2 /b", "write 3 /a/y", "write 4 /a/z"])
    // The outbox is empty once sent.
    effects = []
    ledger.sendQueued(pending: pending, into: &effects)
    #expect(effects.isEmpty)
  }

  @Test func aQueuedWriteNoLongerPendingIsNotSent() {
    var pending = PendingWrites()
    var ledger = RequestLedger()
    var effects: [ClientEffect] = []
    for (identifier, key) in [(1, "x"), (2, "y"), (3, "z")] as [(RequestIdentifier, WebcomKey)] {
      pending.append(PendingWrites.Write(identifier: identifier, operation: Self.set(key, 0)))
      ledger.queueWrite(identifier)
    }
    _ = pending.remove(2)
    ledger.sendQueued(pending: pending, into: &effects)
    #expect(Self.lines(effects) == ["write 1 /a/x", "write 3 /a/z"])
  }

  @Test func aQueuedWriteLeftAtReleaseIsCancelledNamingItsPath() {
    var ledger = RequestLedger()
    ledger.queueWrite(7)
    let answers = ledger.answersAtRelease(
      of: [7], writePaths: [7: DatasyncPath(validatedKeys: ["a", "x"])])
    guard case .answer(7, .failure(let error))? = answers.first, answers.count == 1 else {
      Issue.record("unexpected answers \(answers)")
      return
    }
    #expect(error.code == .writeCancelled)
    #expect(error.message.contains("the write to /a/x was not applied"))
  }
}
