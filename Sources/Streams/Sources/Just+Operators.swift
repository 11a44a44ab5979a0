// Operators on `Just` that return a simple publisher, as Combine's do: the closure runs when the
// operator is applied (once, on the single value), and the result costs no subscription chain.
// A closure that throws gives a `Result.Publisher` that fails.

extension Just {
  /// A `Just` of the transformed value; `transform` runs now.
  @inlinable
  public func map<T>(_ transform: (Output) -> T) -> Just<T> {
    Just<T>(transform(output))
  }

  /// The transformed value, or the error `transform` throws; `transform` runs now.
  @inlinable
  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try transform(output) })
  }

  /// The value if `isIncluded` accepts it, otherwise nothing.
  @inlinable
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(isIncluded(output) ? output : nil)
  }

  /// The transformed value, or nothing when `transform` gives nil.
  @inlinable
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(transform(output))
  }

  /// Whether `predicate` accepts the value.
  @inlinable
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
    Just<Bool>(predicate(output))
  }

  /// Whether `predicate` accepts the value, or the error it throws.
  @inlinable
  public func tryAllSatisfy(
    _ predicate: (Output) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try predicate(output) })
  }

  /// Whether `predicate` accepts the value.
  @inlinable
  public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
    Just<Bool>(predicate(output))
  }

  /// Whether `predicate` accepts the value, or the error it throws.
  @inlinable
  public func tryContains(
    where predicate: (Output) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try predicate(output) })
  }

  /// The value in a one-element array.
  @inlinable
  public func collect() -> Just<[Output]> {
    Just<[Output]>([output])
  }

  /// One.
  @inlinable
  public func count() -> Just<Int> {
    Just<Int>(1)
  }

  /// Nothing when `count` is above zero, the value otherwise (a negative count drops nothing,
  /// where Combine traps).
  @inlinable
  public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(count > 0 ? nil : output)
  }

  /// Nothing when `predicate` accepts the value, the value otherwise.
  @inlinable
  public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? nil : output)
  }

  /// The value.
  @inlinable
  public func first() -> Just<Output> { self }

  /// The value if `predicate` accepts it.
  @inlinable
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// The value.
  @inlinable
  public func last() -> Just<Output> { self }

  /// The value if `predicate` accepts it.
  @inlinable
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// The value (the only one is both the least and the greatest).
  @inlinable
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

  /// The value (the only one is both the least and the greatest).
  @inlinable
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

  /// Finishes without the value.
  @inlinable
  public func ignoreOutput() -> Empty<Output, Never> {
    Empty<Output, Never>()
  }

  /// The value as a result that can fail with `E` (it never does).
  @inlinable
  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(output)
  }

  /// The value as a result that can fail with `E` (it never does; `transform` never runs).
  @inlinable
  public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(output)
  }

  /// The value when `index` is 0, otherwise nothing (a negative index gives nothing, where
  /// Combine traps).
  @inlinable
  public func output(at index: Int) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output).output(at: index)
  }

  /// The value when `range` contains 0, otherwise nothing.
  @inlinable
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher
  where R.Bound == Int {
    Optional<Output>.Publisher(output).output(in: range)
  }

  /// The value when `maxLength` is above zero, otherwise nothing (a negative length gives
  /// nothing, where Combine traps).
  @inlinable
  public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output).prefix(maxLength)
  }

  /// The value if `predicate` accepts it.
  @inlinable
  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// `nextPartialResult(initialResult, value)`.
  @inlinable
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) -> T
  ) -> Result<T, Never>.Publisher {
    scan(initialResult, nextPartialResult)
  }

  /// `nextPartialResult(initialResult, value)`, or the error it throws.
  @inlinable
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    tryScan(initialResult, nextPartialResult)
  }

  /// `nextPartialResult(initialResult, value)`.
  @inlinable
  public func scan<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) -> T
  ) -> Result<T, Never>.Publisher {
    Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
  }

  /// `nextPartialResult(initialResult, value)`, or the error it throws.
  @inlinable
  public func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
  }

  /// The same `Just` (a single value has no duplicate).
  @inlinable
  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

  /// The same `Just` (it cannot fail).
  @inlinable
  public func replaceError(with output: Output) -> Just<Output> { self }

  /// The same `Just` (it is never empty).
  @inlinable
  public func replaceEmpty(with output: Output) -> Just<Output> { self }

  /// The same `Just` (it cannot fail).
  @inlinable
  public func retry(_ retries: Int) -> Just<Output> { self }
}

extension Just where Output: Comparable {
  /// The value.
  @inlinable
  public func min() -> Just<Output> { self }

  /// The value.
  @inlinable
  public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
  /// Whether the value equals `output`.
  @inlinable
  public func contains(_ output: Output) -> Just<Bool> {
    Just<Bool>(self.output == output)
  }

  /// The same `Just` (a single value has no duplicate).
  @inlinable
  public func removeDuplicates() -> Just<Output> { self }
}
