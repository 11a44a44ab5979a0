/// The transactions of a client that are running, by token, and whether a plain write aborted
/// them.
struct RunningTransactions {
  private struct Transaction {
    let path: DatasyncPath
    var isAborted = false
  }

  private var transactions: [UInt64: Transaction] = [:]

  var isEmpty: Bool { transactions.isEmpty }

  mutating func begin(_ token: UInt64, at path: DatasyncPath) {
    transactions[token] = Transaction(path: path)
  }

  mutating func end(_ token: UInt64) {
    transactions[token] = nil
  }

  /// The path of a running transaction, nil once it ended.
  func path(of token: UInt64) -> DatasyncPath? {
    transactions[token]?.path
  }

  /// Whether a running transaction's node is at, above or below `path`.
  func overlaps(_ path: DatasyncPath) -> Bool {
    transactions.values.contains { path.overlaps($0.path) }
  }

  /// Whether a plain write aborted a transaction (true also once it ended).
  func isAborted(_ token: UInt64) -> Bool {
    transactions[token]?.isAborted ?? true
  }

  /// Marks the running transactions a plain write overlaps as aborted: a set at, above or below
  /// the transaction's node, a merge that writes a location at, above or below it. Increments
  /// and compare-and-sets abort nothing.
  mutating func abort(overlapping operation: WriteOperation) {
    guard !transactions.isEmpty else { return }
    let written: [DatasyncPath]
    switch operation {
    case .set(let path, _): written = [path]
    case .merge(let path, let entries): written = entries.map { $0.path(under: path) }
    case .increment, .compareAndSet: return
    }
    for (token, transaction) in transactions
    where written.contains(where: { $0.overlaps(transaction.path) }) {
      transactions[token]?.isAborted = true
    }
  }
}
