// Operators on `Optional.Publisher` that return a simple publisher, as Combine's do: the closure
// runs when the operator is applied (on the value, if there is one), and the result costs no
// subscription chain.

extension Optional.Publisher {
  /// The transformed value, if there is one; `transform` runs now.
  @inlinable
  public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map(transform))
  }

  /// The value if there is one and `isIncluded` accepts it.
  @inlinable
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
  }

  /// The transformed value, or nothing when there is no value or `transform` gives nil.
  @inlinable
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.flatMap(transform))
  }

  /// Whether `predicate` accepts the value; true without a value.
  @inlinable
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate) ?? true)
  }

  /// Whether `predicate` accepts the value; false without a value.
  @inlinable
  public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate) ?? false)
  }

  /// The value in a one-element array, or an empty array.
  @inlinable
  public func collect() -> Optional<[Output]>.Publisher {
    Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
  }

  /// One with a value, zero without.
  @inlinable
  public func count() -> Optional<Int>.Publisher {
    Optional<Int>.Publisher(output == nil ? 0 : 1)
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
    Optional<Output>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
  }

  /// The value, if there is one.
  @inlinable
  public func first() -> Optional<Output>.Publisher { self }

  /// The value if `predicate` accepts it.
  @inlinable
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    filter(predicate)
  }

  /// The value, if there is one.
  @inlinable
  public func last() -> Optional<Output>.Publisher { self }

  /// The value if `predicate` accepts it.
  @inlinable
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    filter(predicate)
  }

  /// The value, if there is one.
  @inlinable
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    self
  }

  /// The value, if there is one.
  @inlinable
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    self
  }

  /// Finishes without the value.
  @inlinable
  public func ignoreOutput() -> Empty<Output, Never> {
    Empty<Output, Never>()
  }

  /// The value when `index` is 0, otherwise nothing.
  @inlinable
  public func output(at index: Int) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(index == 0 ? output : nil)
  }

  /// The value when `range` contains 0, otherwise nothing.
  @inlinable
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher
  where R.Bound == Int {
    Optional<Output>.Publisher(range.contains(0) ? output : nil)
  }

  /// The value when `maxLength` is above zero, otherwise nothing.
  @inlinable
  public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(maxLength > 0 ? output : nil)
  }

  /// The value if `predicate` accepts it.
  @inlinable
  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    filter(predicate)
  }

  /// `nextPartialResult(initialResult, value)`, or `initialResult` without a value.
  @inlinable
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) -> T
  ) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) } ?? initialResult)
  }

  /// `nextPartialResult(initialResult, value)`, or nothing without a value.
  @inlinable
  public func scan<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) -> T
  ) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
  }

  /// The same publisher (a single value has no duplicate).
  @inlinable
  public func removeDuplicates(
    by predicate: (Output, Output) -> Bool
  ) -> Optional<Output>.Publisher { self }

  /// The same publisher (it cannot fail).
  @inlinable
  public func replaceError(with output: Output) -> Optional<Output>.Publisher { self }

  /// The value, or `output` when there is none.
  @inlinable
  public func replaceEmpty(with output: Output) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(self.output ?? output)
  }

  /// The same publisher (it cannot fail).
  @inlinable
  public func retry(_ retries: Int) -> Optional<Output>.Publisher { self }
}

extension Optional.Publisher where Output: Comparable {
  /// The value, if there is one.
  @inlinable
  public func min() -> Optional<Output>.Publisher { self }

  /// The value, if there is one.
  @inlinable
  public func max() -> Optional<Output>.Publisher { self }
}

extension Optional.Publisher where Output: Equatable {
  /// Whether the value equals `output`; false without a value.
  @inlinable
  public func contains(_ output: Output) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(self.output == output)
  }

  /// The same publisher (a single value has no duplicate).
  @inlinable
  public func removeDuplicates() -> Optional<Output>.Publisher { self }
}
