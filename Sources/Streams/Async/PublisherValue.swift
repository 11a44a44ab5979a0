extension Publisher {
  /// The first value of this publisher, awaited; the subscription is cancelled once it arrives.
  ///
  /// - Throws: the publisher's failure; ``StreamsError/completedWithoutValue`` if it finishes
  ///   without a value; `CancellationError` if the task is cancelled first.
  ///
  /// ```swift
  /// let total = try await cart.totalPublisher.value
  /// ```
  @inlinable
  public var value: Output {
    get async throws {
      for try await value in AsyncThrowingPublisher(self) {
        return value
      }
      try Task.checkCancellation()
      throw StreamsError.completedWithoutValue
    }
  }
}
