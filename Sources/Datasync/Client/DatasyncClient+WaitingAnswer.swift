extension DatasyncClient {
  /// The callback of a request waiting for an answer, as the client holds it: the callback and
  /// queue of a write whose caller only wants its outcome are kept as they are, without a closure
  /// (and its allocation) wrapping them.
  enum WaitingAnswer: Sendable {
    /// Gets the written value, or the value read.
    case value(Answer)
    /// Gets the outcome of a write, without its value, on the target's queue.
    case outcome(CallbackTarget<Void>)

    /// Gives the answer its result.
    func callAsFunction(_ result: WebcomResult<JSONValue>) {
      switch self {
      case .value(let answer): answer(result)
      case .outcome(let target): target.deliver(result.map { _ in })
      }
    }
  }
}
