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
    try await write(.set(location, .null), at: time)
  }

  /// Replaces the value (see ``set(_:at:queue:then:)``).
  public func set<T: Encodable>(_ value: T, at time: DatasyncTime = .now) async throws {
    let tree = try JSONValue.fromEncodable(value, encoder: context.encoder)
    try await write(.set(location, tree), at: time)
  }

  /// Merges an object into the value (see ``merge(with:at:queue:then:)``).
  public func merge<T: Encodable>(with value: T, at time: DatasyncTime = .now) async throws {
    try await write(try mergeOperation(value), at: time)
  }

  /// Adds a child with a push identifier key (see ``push(_:queue:then:)``).
  ///
  /// - Returns: The new child, once the back end has written it.
  @discardableResult
  public func push<T: Encodable>(_ value: T) async throws -> DatasyncNode {
    let tree = try JSONValue.fromEncodable(value, encoder: context.encoder)
    let child = createChild()
    try await write(.set(child.location, tree), at: .now)
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

  /// Hands a write to the client and waits for its outcome.
  ///
  /// The task is resumed where the client gets the answer, with no hop through a queue: an
  /// embedded database acknowledges a write within the call, so the task goes on without
  /// suspending. Resuming runs none of the caller's code there; the task continues on its own
  /// executor.
  private func write(_ operation: WriteOperation, at time: DatasyncTime) async throws {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      do throws(WebcomError) {
        try perform(
          operation, at: time,
          answer: .value { result in continuation.resume(with: result.map { _ in }) })
      } catch {
        continuation.resume(throwing: error)
      }
    }
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
