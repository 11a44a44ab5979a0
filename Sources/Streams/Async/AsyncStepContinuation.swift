extension UnsafeContinuation where E == Never {
  /// Resumes a task awaiting the next element of a bridged publisher with the stream's end: nil
  /// when it finished, its failure otherwise.
  @inlinable
  func resume<Element, Failure: Error>(ending completion: Subscribers.Completion<Failure>)
  where T == UnsafeTransfer<Result<Element?, Failure>> {
    switch completion {
    case .finished: resume(returning: UnsafeTransfer(.success(nil)))
    case .failure(let error): resume(returning: UnsafeTransfer(.failure(error)))
    }
  }
}
