import Testing

@testable import Datasync

/// The decisions of a transaction's attempts, and which writes abort a running transaction.
@Suite struct TransactionRetriesTests {
  private static let path = DatasyncPath.root.child("t")

  private static func summary(of start: TransactionRetries.Start) -> String {
    switch start {
    case .write(let value): "write \(value.jsonString)"
    case .finish(let outcome): summary(of: outcome)
    }
  }

  private static func summary(of decision: TransactionRetries.Decision) -> String {
    switch decision {
    case .retry: "retry"
    case .finish(let outcome): summary(of: outcome)
    }
  }

  private static func summary(of outcome: TransactionRetries.Outcome) -> String {
    switch outcome {
    case .success(let result):
      "\(result.committed ? "committed" : "uncommitted") \(result.value.jsonString)"
    case .failure(let error): "failed \(error.code)"
    }
  }

  @Test(arguments: [
    (false, WebcomResult<JSONValue?>.success(.int(2)), "write 2"),
    (false, .success(nil), "uncommitted 1"),
    (false, .failure(WebcomError(.invalidValue, "refused")), "failed invalidValue"),
    (true, .success(.int(2)), "uncommitted 1"),
  ])
  func anAttemptWritesTheComputedValueUnlessAbortedOrRefused(
    isAborted: Bool, computed: WebcomResult<JSONValue?>, expected: String
  ) {
    let retries = TransactionRetries(path: Self.path)
    let start = retries.start(current: .int(1), isAborted: isAborted) { _ in computed }
    #expect(Self.summary(of: start) == expected)
  }

  @Test(arguments: [
    (WebcomResult<JSONValue>.success(.int(2)), "committed 2"),
    (.failure(WebcomError(.transactionAborted, "changed")), "retry"),
    (.failure(WebcomError(.permissionDenied, "denied")), "failed permissionDenied"),
    (.failure(WebcomError(.disconnected, "gone")), "failed disconnected"),
  ])
  func theBackEndsAnswerCommitsRetriesOrFails(answer: WebcomResult<JSONValue>, expected: String) {
    var retries = TransactionRetries(path: Self.path)
    #expect(Self.summary(of: retries.decide(after: answer)) == expected)
  }

  @Test func conflictsRetryUpToTheMaximumThenFail() {
    var retries = TransactionRetries(path: Self.path)
    let conflict = WebcomResult<JSONValue>.failure(WebcomError(.transactionAborted, "changed"))
    var decisions: [String] = []
    for _ in 1...TransactionRetries.maximumAttempts {
      decisions.append(Self.summary(of: retries.decide(after: conflict)))
    }
    #expect(decisions.dropLast().allSatisfy { $0 == "retry" })
    #expect(decisions.last == "failed transactionTooManyRetries")
    #expect(retries.attempt == TransactionRetries.maximumAttempts)
  }

  @Test(arguments: [
    ("/t", true), ("/", true), ("/t/x", true), ("/u", false), ("/tt", false),
  ])
  func aSetAtAboveOrBelowTheNodeAbortsARunningTransaction(written: String, aborts: Bool) throws {
    var machine = ClientStateMachine()
    let token = machine.beginTransaction(at: Self.path)
    _ = machine.write(
      .set(try DatasyncPath(parsing: written), .int(1)), now: .distantPast)
    #expect(machine.transactionAttempt(token).isAborted == aborts)
  }

  @Test func aMergeAbortsOnlyWhenOneOfItsLocationsOverlapsAndIncrementsNeverDo() throws {
    var machine = ClientStateMachine()
    let token = machine.beginTransaction(at: Self.path)
    let elsewhere = try MergeEntry.entries(from: [("u", .int(1)), ("v/t", .int(2))])
    _ = machine.write(.merge(.root, elsewhere), now: .distantPast)
    _ = machine.write(.increment(Self.path, start: 0, step: 1), now: .distantPast)
    #expect(machine.transactionAttempt(token) == (current: .int(1), isAborted: false))
    let overlapping = try MergeEntry.entries(from: [("t/x", .int(3))])
    _ = machine.write(.merge(.root, overlapping), now: .distantPast)
    #expect(machine.transactionAttempt(token).isAborted)
  }

  @Test func anEndedTransactionReadsAsAborted() {
    var machine = ClientStateMachine()
    let token = machine.beginTransaction(at: Self.path)
    machine.endTransaction(token)
    #expect(machine.transactionAttempt(token).isAborted)
  }
}
