import Foundation

/// The `async` forms of the node's operations; each behaves as its callback form.
extension DatasyncNode {
  /// The complete value of the node (see ``value(queue:then:)``).
  public func value() async throws -> DatasyncValue {
    try await withCallback { value(queue: $0, then: $1) }
  }

  /// The value of the node decoded (see ``decodedValue(as:queue:then:)``).
  public func decodedValue<T: Decodable & Sendable>(as type: T.Type = T.self) async throws -> T {
    try await withCallback { decodedValue(as: type, queue: $0, then: $1) }
  }

  /// Deletes the value (see ``clear(at:queue:then:)``).
  public func clear(at time: DatasyncTime = .now) async throws {
    try await withCallback { clear(at: time, queue: $0, then: $1) }
  }

  /// Replaces the value (see ``set(_:at:queue:then:)``).
  public func set<T: Encodable>(_ value: T, at time: DatasyncTime = .now) async throws {
    let tree = try JSONValue.fromEncodable(value, encoder: context.encoder)
    try await withCallback {
      perform(.set(location, tree), at: time, target: CallbackTarget(queue: $0, then: $1))
    }
  }

  /// Merges an object into the value (see ``merge(with:at:queue:then:)``).
  public func merge<T: Encodable>(with value: T, at time: DatasyncTime = .now) async throws {
    let operation = try mergeOperation(value)
    try await withCallback {
      perform(operation, at: time, target: CallbackTarget(queue: $0, then: $1))
    }
  }

  /// Adds a child with a push identifier key (see ``push(_:queue:then:)``).
  ///
  /// - Returns: The new child, once the back end has written it.
  @discardableResult
  public func push<T: Encodable>(_ value: T) async throws -> DatasyncNode {
    let tree = try JSONValue.fromEncodable(value, encoder: context.encoder)
    let child = createChild()
    try await withCallback {
      perform(.set(child.location, tree), at: .now, target: CallbackTarget(queue: $0, then: $1))
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
    try await withCallback { increment(from: startValue, by: step, queue: $0, then: $1) }
  }

  /// Runs a transaction (see ``transaction(_:queue:then:)``).
  @discardableResult
  public func transaction(_ function: @escaping DatasyncTransaction.Function) async throws
    -> DatasyncTransaction.Result
  {
    try await withCallback { transaction(function, queue: $0, then: $1) }
  }

  /// Copies the value to another node (see ``copy(to:queue:then:)``).
  public func copy(to destination: DatasyncNode) async throws {
    try await withCallback { copy(to: destination, queue: $0, then: $1) }
  }

  /// Cancels the disconnection operations (see ``cancelDisconnectionOperations(queue:then:)``).
  public func cancelDisconnectionOperations() async throws {
    try await withCallback { cancelDisconnectionOperations(queue: $0, then: $1) }
  }

  /// Runs a callback-form operation and waits for its callback, called on a private queue (never
  /// the main queue).
  private func withCallback<T: Sendable>(
    _ start: (DispatchQueue, @escaping (WebcomResult<T>) -> Void) -> Void
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      start(DatasyncNode.asyncQueue) { result in continuation.resume(with: result) }
    }
  }

  private static let asyncQueue = DispatchQueue(
    label: "datasync.async-results", attributes: .concurrent)
}
