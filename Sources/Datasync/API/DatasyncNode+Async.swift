/// The `async` forms of the node's operations; each behaves as its callback form, and its result
/// resumes the waiting task straight from the thread that has it, through no queue.
extension DatasyncNode {
  /// The complete value of the node (see ``value(queue:then:)``).
  public func value() async throws -> DatasyncValue {
    try await CallbackTarget.result { value(target: $0) }
  }

  /// The value of the node decoded (see ``decodedValue(as:queue:then:)``).
  public func decodedValue<T: Decodable & Sendable>(as type: T.Type = T.self) async throws -> T {
    try await CallbackTarget.result { decodedValue(as: type, target: $0) }
  }

  /// Deletes the value (see ``clear(at:queue:then:)``).
  public func clear(at time: DatasyncTime = .now) async throws {
    try await CallbackTarget.result { perform(.set(location, .null), at: time, target: $0) }
  }

  /// Replaces the value (see ``set(_:at:queue:then:)``).
  public func set<T: Encodable>(_ value: T, at time: DatasyncTime = .now) async throws {
    let tree = try JSONValue.fromEncodable(value, encoder: context.encoder)
    try await CallbackTarget.result {
      perform(.set(location, tree), at: time, target: $0)
    }
  }

  /// Merges an object into the value (see ``merge(with:at:queue:then:)``).
  public func merge<T: Encodable>(with value: T, at time: DatasyncTime = .now) async throws {
    let operation = try mergeOperation(value)
    try await CallbackTarget.result {
      perform(operation, at: time, target: $0)
    }
  }

  /// Adds a child with a push identifier key (see ``push(_:queue:then:)``).
  ///
  /// - Returns: The new child, once the back end has written it.
  @discardableResult
  public func push<T: Encodable>(_ value: T) async throws -> DatasyncNode {
    let tree = try JSONValue.fromEncodable(value, encoder: context.encoder)
    let child = createChild()
    try await CallbackTarget.result {
      perform(.set(child.location, tree), at: .now, target: $0)
    }
    return child
  }

  /// Atomically adds `step` (see ``increment(from:by:queue:then:)``).
  ///
  /// - Returns: The new value written by the back end.
  @discardableResult
  public func increment(from startValue: Double = 0, by step: Double = 1) async throws
    -> DatasyncValue
  {
    try await CallbackTarget.result { increment(from: startValue, by: step, target: $0) }
  }

  /// Runs a transaction (see ``transaction(_:queue:then:)``).
  @discardableResult
  public func transaction(_ function: @escaping DatasyncTransaction.Function) async throws
    -> DatasyncTransaction.Result
  {
    try await CallbackTarget.result { transaction(function, target: $0) }
  }

  /// Copies the value to another node (see ``copy(to:queue:then:)``).
  public func copy(to destination: DatasyncNode) async throws {
    try await CallbackTarget.result { copy(to: destination, target: $0) }
  }

  /// Cancels the disconnection operations (see ``cancelDisconnectionOperations(queue:then:)``).
  public func cancelDisconnectionOperations() async throws {
    try await CallbackTarget.result { cancelDisconnectionOperations(target: $0) }
  }
}
