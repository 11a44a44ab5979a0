extension Subscribers {
  /// The end of a stream: normal completion, or failure with an error.
  @frozen
  public enum Completion<Failure: Error> {
    /// The publisher finished normally.
    case finished
    /// The publisher stopped because of an error.
    case failure(Failure)
  }
}

extension Subscribers.Completion: Sendable where Failure: Sendable {}
extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}

extension Subscribers.Completion {
  /// The same completion with `Never` replaced by another failure type.
  @inlinable
  internal func mapFailure<NewFailure: Error>(
    _ transform: (Failure) -> NewFailure
  ) -> Subscribers.Completion<NewFailure> {
    switch self {
    case .finished: return .finished
    case .failure(let error): return .failure(transform(error))
    }
  }
}
