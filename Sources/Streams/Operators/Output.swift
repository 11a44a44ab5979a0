extension Publisher {
  /// Delivers only the value at `index` (counting from 0), then cancels the upstream and finishes.
  ///
  /// A negative index is treated as an empty range: the publisher finishes at once.
  ///
  /// ```swift
  /// let cancellable = ["a", "b", "c"].publisher.output(at: 1).sink { print($0) }  // b
  /// ```
  @inlinable
  public consuming func output(at index: Int) -> Publishers.Output<Self> {
    Publishers.Output(upstream: self, range: index < 0 ? 0..<0 : index..<(index + 1))
  }

  /// Delivers only the values whose indices (counting from 0) are in `range`, cancelling the
  /// upstream and finishing after the last one.
  ///
  /// Demand is Combine's: the downstream's requests go to the upstream as they are; each value
  /// before the range is dropped and the upstream asked for one more in its place; a value in the
  /// range goes straight through, and the demand the downstream returns for it (even for the last
  /// one) goes back to the upstream. Negative bounds are clamped to 0, where Combine traps.
  /// Whether Combine finishes right after the last value of the range or only when the next
  /// upstream value arrives could not be established; this finishes right after it.
  @inlinable
  public consuming func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self>
  where R.Bound == Int {
    let relative = range.relative(to: 0..<Int.max)
    let lower = Swift.max(0, relative.lowerBound)
    return Publishers.Output(upstream: self, range: lower..<Swift.max(lower, relative.upperBound))
  }

  /// Delivers at most the first `maxLength` values, then cancels the upstream and finishes.
  ///
  /// `prefix(0)` (or a negative length) finishes at once.
  @inlinable
  public consuming func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
    Publishers.Output(upstream: self, range: 0..<Swift.max(0, maxLength))
  }
}

extension Publishers {
  /// A publisher that delivers the upstream values whose indices are in a range.
  public struct Output<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are selected.
    public let upstream: Upstream
    /// The indices of the values to deliver.
    public let range: CountableRange<Int>

    /// Creates a `Output` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, range: CountableRange<Int>) {
      self.upstream = upstream
      self.range = range
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let logic = OutputLogic<Output, Failure>(range: range)
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "Output"))
    }
  }
}

@usableFromInline
internal struct OutputLogic<Input, Failure: Error>: FilterLogic {
  @usableFromInline typealias UpstreamFailure = Failure
  @usableFromInline let range: CountableRange<Int>
  @usableFromInline var index = 0

  @inlinable
  init(range: CountableRange<Int>) {
    self.range = range
  }

  @inlinable
  var isExhausted: Bool { range.isEmpty }

  @inlinable
  mutating func receive(_ input: Input) -> FilterStep<Input, Failure> {
    defer { index += 1 }
    if index < range.lowerBound { return .drop }
    return index == range.upperBound - 1 ? .emitAndFinish(input) : .emit(input)
  }
}
