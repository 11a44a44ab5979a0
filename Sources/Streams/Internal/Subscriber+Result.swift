extension Subscriber {
  /// Delivers a single-value publisher's `result`: its value, then `.finished`, or its failure.
  @inlinable
  func receive(result: Result<Input, Failure>) {
    switch result {
    case .success(let value):
      _ = receive(value)
      receive(completion: .finished)
    case .failure(let error):
      receive(completion: .failure(error))
    }
  }
}
