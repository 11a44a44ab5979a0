// Operators on `Publishers.Sequence` that return a simple publisher, as Combine's do: they run
// eagerly, when the operator is applied, over the whole sequence, and the result costs no
// subscription chain. So, as in Combine, an operator on the publisher of an endless sequence
// (`(1...).publisher.map { … }`) never returns; put `eraseToAnyPublisher()` (or any operator that
// is not one of these) in front to get the lazy, demand-driven operator instead.
//
// Counts and ranges outside the sequence are clamped (a negative `dropFirst` or `prefix` count
// takes nothing away or nothing, an `output(in:)` range is cut to the sequence's indices), where
// Swift's sequence methods, and so Combine, trap.

extension Publishers.Sequence {
  /// The transformed elements; `transform` runs now, over every element.
  @inlinable
  public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
    Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
  }

  /// The partial results of `nextPartialResult`, each combining the previous one (`initialResult`
  /// first) with the next element; computed now.
  @inlinable
  public func scan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Publishers.Sequence<[T], Failure> {
    var partialResult = initialResult
    return Publishers.Sequence<[T], Failure>(
      sequence: sequence.map { element in
        partialResult = nextPartialResult(partialResult, element)
        return partialResult
      })
  }

  /// The elements `isIncluded` accepts; it runs now, over every element.
  @inlinable
  public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
    Publishers.Sequence<[Output], Failure>(sequence: sequence.filter(isIncluded))
  }

  /// The non-nil results of `transform`; it runs now, over every element.
  @inlinable
  public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
    Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
  }

  /// The elements after the first `count` (all of them when `count` is not positive).
  @inlinable
  public func dropFirst(
    _ count: Int = 1
  ) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
    Publishers.Sequence<DropFirstSequence<Elements>, Failure>(
      sequence: sequence.dropFirst(Swift.max(0, count)))
  }

  /// The elements from the first one `predicate` rejects on.
  @inlinable
  public func drop(
    while predicate: (Elements.Element) -> Bool
  ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
    Publishers.Sequence<DropWhileSequence<Elements>, Failure>(
      sequence: sequence.drop(while: predicate))
  }

  /// The first `maxLength` elements (none when `maxLength` is not positive).
  @inlinable
  public func prefix(
    _ maxLength: Int
  ) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
    Publishers.Sequence<PrefixSequence<Elements>, Failure>(
      sequence: sequence.prefix(Swift.max(0, maxLength)))
  }

  /// The elements before the first one `predicate` rejects.
  @inlinable
  public func prefix(
    while predicate: (Elements.Element) -> Bool
  ) -> Publishers.Sequence<[Elements.Element], Failure> {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.prefix(while: predicate))
  }

  /// Every element in one array.
  @inlinable
  public func collect() -> Result<[Output], Failure>.Publisher {
    Result<[Output], Failure>.Publisher(.success(Array(sequence)))
  }

  /// Whether `predicate` accepts every element.
  @inlinable
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(.success(sequence.allSatisfy(predicate)))
  }

  /// Whether `predicate` accepts every element, or the error it throws.
  @inlinable
  public func tryAllSatisfy(
    _ predicate: (Output) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
  }

  /// Whether `predicate` accepts an element.
  @inlinable
  public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(.success(sequence.contains(where: predicate)))
  }

  /// Whether `predicate` accepts an element, or the error it throws.
  @inlinable
  public func tryContains(
    where predicate: (Output) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
  }

  /// The result of combining every element with `nextPartialResult`, from `initialResult`.
  @inlinable
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(.success(sequence.reduce(initialResult, nextPartialResult)))
  }

  /// The result of combining every element with `nextPartialResult`, from `initialResult`, or
  /// the error it throws.
  @inlinable
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(
      Result { try sequence.reduce(initialResult, nextPartialResult) })
  }

  /// The elements with every nil replaced by `output`.
  @inlinable
  public func replaceNil<T>(
    with output: T
  ) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
    Publishers.Sequence<[Output], Failure>(sequence: sequence.map { $0 ?? output })
  }

  /// No element, then the finish.
  @inlinable
  public func ignoreOutput() -> Empty<Output, Failure> {
    Empty<Output, Failure>()
  }

  /// The same elements, as a publisher that may fail with `E` (it never does).
  @inlinable
  public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.Sequence<Elements, E> {
    Publishers.Sequence<Elements, E>(sequence: sequence)
  }
}

extension Publishers.Sequence where Failure == Never {
  /// The smallest element by `areInIncreasingOrder`, nothing for an empty sequence.
  @inlinable
  public func min(
    by areInIncreasingOrder: (Output, Output) -> Bool
  ) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.min(by: areInIncreasingOrder))
  }

  /// The largest element by `areInIncreasingOrder`, nothing for an empty sequence.
  @inlinable
  public func max(
    by areInIncreasingOrder: (Output, Output) -> Bool
  ) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.max(by: areInIncreasingOrder))
  }

  /// The first element `predicate` accepts, nothing if there is none.
  @inlinable
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.first(where: predicate))
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  /// The elements without the repeats of the element just before.
  @inlinable
  public func removeDuplicates() -> Publishers.Sequence<[Output], Failure> {
    var kept: [Output] = []
    for element in sequence where kept.last != element {
      kept.append(element)
    }
    return Publishers.Sequence<[Output], Failure>(sequence: kept)
  }

  /// Whether `output` is an element.
  @inlinable
  public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(.success(sequence.contains(output)))
  }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
  /// The smallest element, nothing for an empty sequence.
  @inlinable
  public func min() -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.min())
  }

  /// The largest element, nothing for an empty sequence.
  @inlinable
  public func max() -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.max())
  }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
  /// The first element, nothing for an empty collection.
  @inlinable
  public func first() -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.first)
  }

  /// The element at `index`, nothing when `index` is not a valid index.
  @inlinable
  public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
  }
}

extension Publishers.Sequence where Elements: Collection {
  /// The number of elements.
  @inlinable
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(.success(sequence.count))
  }

  /// The elements at the indices of `range` (cut to the collection's indices).
  @inlinable
  public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
    Publishers.Sequence<[Output], Failure>(
      sequence: Array(sequence[range.clamped(to: sequence.startIndex..<sequence.endIndex)]))
  }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
  /// The last element, nothing for an empty collection.
  @inlinable
  public func last() -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.last)
  }

  /// The last element `predicate` accepts, nothing if there is none.
  @inlinable
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.last(where: predicate))
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
  /// The element at `index`, nothing when `index` is not a valid index.
  @inlinable
  public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
  }

  /// The number of elements.
  @inlinable
  public func count() -> Just<Int> {
    Just<Int>(sequence.count)
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
  /// The elements at the indices of `range` (cut to the collection's indices).
  @inlinable
  public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
    Publishers.Sequence<[Output], Failure>(
      sequence: Array(sequence[range.clamped(to: sequence.startIndex..<sequence.endIndex)]))
  }

  /// The number of elements.
  @inlinable
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(.success(sequence.count))
  }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
  /// `elements`, then this publisher's elements.
  @inlinable
  public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
    prepend(elements)
  }

  /// The elements of `elements`, then this publisher's elements.
  @inlinable
  public func prepend<S: Swift.Sequence>(
    _ elements: S
  ) -> Publishers.Sequence<Elements, Failure> where S.Element == Output {
    var joined = Elements(elements)
    joined.append(contentsOf: sequence)
    return Publishers.Sequence<Elements, Failure>(sequence: joined)
  }

  /// The elements of `publisher`, then this publisher's elements.
  @inlinable
  public func prepend(
    _ publisher: Publishers.Sequence<Elements, Failure>
  ) -> Publishers.Sequence<Elements, Failure> {
    prepend(publisher.sequence)
  }

  /// This publisher's elements, then `elements`.
  @inlinable
  public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
    append(elements)
  }

  /// This publisher's elements, then the elements of `elements`.
  @inlinable
  public func append<S: Swift.Sequence>(
    _ elements: S
  ) -> Publishers.Sequence<Elements, Failure> where S.Element == Output {
    var joined = sequence
    joined.append(contentsOf: elements)
    return Publishers.Sequence<Elements, Failure>(sequence: joined)
  }

  /// This publisher's elements, then the elements of `publisher`.
  @inlinable
  public func append(
    _ publisher: Publishers.Sequence<Elements, Failure>
  ) -> Publishers.Sequence<Elements, Failure> {
    append(publisher.sequence)
  }
}
