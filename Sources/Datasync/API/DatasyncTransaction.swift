/// The vocabulary of ``DatasyncNode/transaction(_:queue:then:)``.
///
/// ```swift
/// counter.transaction({ value in .set((value.asInt ?? 0) + 1) }, queue: queue) { result in
///   if case .success(let outcome) = result { print(outcome.committed, outcome.value) }
/// }
/// ```
public enum DatasyncTransaction {
  /// What a transaction function asks for.
  public enum Operation: Sendable {
    /// Write this value (encoded with the application's encoder).
    case set(any Encodable & Sendable)
    /// Delete the node.
    case clear
    /// Stop without writing; the transaction reports `committed == false`.
    case abort
  }

  /// Computes the operation from the node's current value (null when nothing is known yet).
  ///
  /// It may run several times: when the back end finds that the value changed meanwhile, the
  /// function is run again with the newer value (at most 25 times).
  public typealias Function = @Sendable (DatasyncValue) -> Operation

  /// The outcome of a transaction.
  public struct Result: Sendable {
    /// Whether the transaction wrote its value (false when the function aborted).
    public let committed: Bool
    /// The value written, or the value the function saw when it aborted.
    public let value: DatasyncValue
  }

  /// Flips a boolean: null and false become true, true becomes false; any other value aborts.
  public static let toggle: Function = toggle(whenNull: true)

  /// Flips a boolean; a null node becomes `whenNull`; any value that is not a boolean aborts.
  ///
  /// - Parameter whenNull: The value written when the node is null.
  public static func toggle(whenNull: Bool) -> Function {
    { value in
      if value.isNull { return .set(whenNull) }
      guard let flag = value.asBool else { return .abort }
      return .set(!flag)
    }
  }
}
