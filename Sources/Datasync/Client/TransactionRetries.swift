/// The attempts of one transaction: each computes the new value from the current one and writes
/// it as a compare-and-set; when the back end refuses it because the value changed meanwhile
/// (`transactionAborted`), a new attempt starts, up to ``maximumAttempts``.
struct TransactionRetries {
  typealias Outcome = WebcomResult<(committed: Bool, value: JSONValue)>

  /// What an attempt does once it has the current value.
  enum Start {
    /// Write this value as a compare-and-set against the current one.
    case write(JSONValue)
    /// End the transaction.
    case finish(Outcome)
  }

  /// What the back end's answer to an attempt's compare-and-set leads to.
  enum Decision {
    /// Start a new attempt with the newer value.
    case retry
    /// End the transaction.
    case finish(Outcome)
  }

  static let maximumAttempts = 25

  let path: DatasyncPath
  /// The current attempt, from 1.
  private(set) var attempt = 1

  init(path: DatasyncPath) {
    self.path = path
  }

  /// Starts an attempt: it ends uncommitted with the current value when a plain write aborted the
  /// transaction or `compute` returns nil, fails with the error `compute` returns, else writes
  /// the computed value.
  func start(
    current: JSONValue, isAborted: Bool, compute: (JSONValue) -> WebcomResult<JSONValue?>
  ) -> Start {
    if isAborted { return .finish(.success((committed: false, value: current))) }
    switch compute(current) {
    case .success(let value?): return .write(value)
    case .success(nil): return .finish(.success((committed: false, value: current)))
    case .failure(let error): return .finish(.failure(error))
    }
  }

  /// Decides on the back end's answer to the attempt's compare-and-set: committed with the
  /// written value; a new attempt after a conflict, or `transactionTooManyRetries` after
  /// ``maximumAttempts`` conflicts; any other error ends the transaction with it.
  mutating func decide(after answer: WebcomResult<JSONValue>) -> Decision {
    switch answer {
    case .success(let value):
      return .finish(.success((committed: true, value: value)))
    case .failure(let error) where error.code == .transactionAborted:
      guard attempt < Self.maximumAttempts else {
        return .finish(
          .failure(
            WebcomError(
              .transactionTooManyRetries,
              "the transaction at \(path.string) conflicted \(attempt) times with other writes")))
      }
      attempt += 1
      return .retry
    case .failure(let error):
      return .finish(.failure(error))
    }
  }
}
