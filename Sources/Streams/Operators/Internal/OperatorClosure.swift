/// The closure of a one-argument operator that comes in a plain and a throwing variant
/// (`drop(while:)` and `tryDrop(while:)`), kept as the caller gave it.
///
/// Storing the caller's closure itself, rather than a closure of ours that wraps it in a
/// `Result`, saves allocating that wrapper's context for every subscription.
@usableFromInline
internal enum UnaryOperatorClosure<Input, Output, Failure: Error> {
  case plain((Input) -> Output)
  case throwing((Input) throws(Failure) -> Output)

  /// Calls the closure; an error it throws becomes the failure.
  @inlinable
  func callAsFunction(_ input: Input) -> Result<Output, Failure> {
    switch self {
    case .plain(let body):
      return .success(body(input))
    case .throwing(let body):
      return Result { () throws(Failure) in try body(input) }
    }
  }
}

/// The closure of a two-argument operator that comes in a plain and a throwing variant
/// (`scan(_:_:)` and `tryScan(_:_:)`), kept as the caller gave it; see ``UnaryOperatorClosure``.
@usableFromInline
internal enum BinaryOperatorClosure<First, Second, Output, Failure: Error> {
  case plain((First, Second) -> Output)
  case throwing((First, Second) throws(Failure) -> Output)

  /// Calls the closure; an error it throws becomes the failure.
  @inlinable
  func callAsFunction(_ first: First, _ second: Second) -> Result<Output, Failure> {
    switch self {
    case .plain(let body):
      return .success(body(first, second))
    case .throwing(let body):
      return Result { () throws(Failure) in try body(first, second) }
    }
  }
}
