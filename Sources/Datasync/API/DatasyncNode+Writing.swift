import Foundation

extension DatasyncNode {
  /// Deletes the value of the node; the same as `set(nil as Int?, at:queue:then:)`.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed (but for
  /// top-level code: see ``set(_:at:queue:then:)``).
  ///
  /// - Parameters:
  ///   - time: `.now`, or a disconnection of this client (see ``set(_:at:queue:then:)``).
  ///   - queue: The queue `then` is called on.
  ///   - then: Called when the back end has applied (or registered) the write, or with its error
  ///     (`invalidPath` for a node past the limits of paths, see ``createChild()``).
  public func clear(
    at time: DatasyncTime = .now, queue: DispatchQueue = .main,
    then: ((WebcomResult<Void>) -> Void)? = nil
  ) {
    perform(.set(location, .null), at: time, target: CallbackTarget(queue: queue, then: then))
  }

  /// Replaces the value of the node; its previous children are all removed.
  ///
  /// The value is encoded with the application's ``WebcomApplication/jsonEncoder``; null deletes
  /// the node, arrays are stored as objects keyed `"0"`, `"1"`, …. Local subscriptions get their
  /// events at once (with `acked == false`), `then` is called when the back end has applied the
  /// write. With `at: .nextDisconnection` the back end applies it when this client next
  /// disconnects, with `.onDisconnection` at every disconnection; `then` is called when the back
  /// end has registered it.
  ///
  /// From `async` functions and closures this form is chosen only when `queue:` or `then:` is
  /// passed; otherwise `try await node.set(value)` is used. Top-level code (a `main.swift`) is
  /// the exception: there Swift chooses this form for `try await node.set(value)` too, and only
  /// warns that no `async` operation occurs in the `await`: await writes from an `async`
  /// function.
  ///
  /// - Parameters:
  ///   - value: The new value.
  ///   - time: When the back end applies the write.
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the outcome; errors: `encodingFailed`, `invalidValue` (NaN, infinity, or
  ///     a value whose stored paths would exceed 32 levels or 768 UTF-8 bytes, naming the
  ///     culprit path), `invalidKey` (a forbidden character in a key), `invalidPath` (a node past
  ///     those limits, see ``createChild()``), or the back end's rejection. On error nothing is
  ///     written and no local event is raised.
  public func set<T: Encodable>(
    _ value: T, at time: DatasyncTime = .now, queue: DispatchQueue = .main,
    then: ((WebcomResult<Void>) -> Void)? = nil
  ) {
    let target = CallbackTarget(queue: queue, then: then)
    do throws(WebcomError) {
      let tree = try JSONValue.fromEncodable(value, encoder: context.encoder)
      perform(.set(location, tree), at: time, target: target)
    } catch {
      target.deliver(.failure(error))
    }
  }

  /// Merges an object into the value of the node: each member is written exactly as
  /// ``set(_:at:queue:then:)`` would write it at its location (null, an empty object and an
  /// empty array delete it; server values resolve), everything else is kept.
  ///
  /// A member's key is a child key, or a path below the node whose segments are separated by `/`
  /// (no empty segment, no `.` nor `..`): one merge writes several locations atomically, as the
  /// `update` of hosted realtime databases does, and raises one batch of events. No two keys may
  /// overlap (`"a"` with `"a/b"`). An array merges its elements at `"0"`, `"1"`, …
  ///
  /// ```swift
  /// node.merge(with: ["profile/name": "Ada", "lastSeen": nil] as [String: String?])
  /// ```
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed (but for
  /// top-level code: see ``set(_:at:queue:then:)``).
  ///
  /// - Parameters:
  ///   - value: A value that encodes to a JSON object (or array).
  ///   - time: When the back end applies the write (see ``set(_:at:queue:then:)``).
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the outcome; `invalidArgument` when the value is not an object or when
  ///     two keys overlap (naming both), `invalidKey` for a key with an invalid segment,
  ///     `invalidPath` when a written location exceeds 32 levels or 768 bytes, and the errors of
  ///     ``set(_:at:queue:then:)``. On error nothing is written.
  public func merge<T: Encodable>(
    with value: T, at time: DatasyncTime = .now, queue: DispatchQueue = .main,
    then: ((WebcomResult<Void>) -> Void)? = nil
  ) {
    let target = CallbackTarget(queue: queue, then: then)
    do throws(WebcomError) {
      perform(try mergeOperation(value), at: time, target: target)
    } catch {
      target.deliver(.failure(error))
    }
  }

  /// The merge of a value into this node.
  ///
  /// - Throws: the encoding errors, `invalidArgument` for a value that is not an object nor an
  ///   array or for overlapping keys, `invalidKey` for an invalid key segment.
  func mergeOperation<T: Encodable>(_ value: T) throws(WebcomError) -> WriteOperation {
    switch try ValueEncoder(configuration: context.encoder).encodeMembers(value) {
    case .members(let members):
      return .merge(location, try MergeEntry.entries(from: members))
    case .other(let other):
      throw WebcomError(
        .invalidArgument,
        "cannot merge into \(path): merge needs a value that encodes to an object, not "
          + other.kindDescription)
    }
  }

  /// Adds a child with a push identifier key (chronologically ordered) and the given value.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed (but for
  /// top-level code: see ``set(_:at:queue:then:)``).
  ///
  /// - Parameters:
  ///   - value: The value of the new child.
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the outcome (errors as for ``set(_:at:queue:then:)``; `invalidPath` when
  ///     the node is at the limits of paths, see ``createChild()``).
  /// - Returns: The new child, or nil when the write is refused before it starts: the value
  ///   cannot be encoded or stored there (`then` gets the error).
  @discardableResult
  public func push<T: Encodable>(
    _ value: T, queue: DispatchQueue = .main, then: ((WebcomResult<Void>) -> Void)? = nil
  ) -> DatasyncNode? {
    let target = CallbackTarget(queue: queue, then: then)
    do throws(WebcomError) {
      let tree = try JSONValue.fromEncodable(value, encoder: context.encoder)
      let child = createChild()
      return perform(.set(child.location, tree), at: .now, target: target) ? child : nil
    } catch {
      target.deliver(.failure(error))
      return nil
    }
  }

  /// Atomically adds `step` to the number of the node; a null node starts from `startValue`.
  ///
  /// Concurrent increments from any clients all count. Integers stay integers when `startValue`
  /// and `step` are integral and the sum fits in `Int64`; past that range the sum continues as a
  /// floating number (`Int64.max` + 1 gives 9.223372036854775808e18), as hosted databases do. A
  /// sum too large to be finite fails with `invalidValue` and writes nothing.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed (but for
  /// top-level code: see ``set(_:at:queue:then:)``).
  ///
  /// - Parameters:
  ///   - startValue: The value assumed for a null node.
  ///   - step: The amount to add (negative to decrement).
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the new value written by the back end; `notANumber` when the node holds
  ///     something else than a number (nothing is written), `invalidValue` for a NaN or infinite
  ///     argument or sum, `invalidPath` for a node past the limits of paths (see ``createChild()``).
  public func increment(
    from startValue: Double = 0, by step: Double = 1, queue: DispatchQueue = .main,
    then: ((WebcomResult<DatasyncValue>) -> Void)? = nil
  ) {
    increment(from: startValue, by: step, target: CallbackTarget(queue: queue, then: then))
  }

  /// Adds `step` for `target`, as ``increment(from:by:queue:then:)``.
  func increment(from startValue: Double, by step: Double, target: CallbackTarget<DatasyncValue>) {
    guard startValue.isFinite, step.isFinite else {
      target.deliver(
        .failure(
          WebcomError(
            .invalidValue,
            "cannot increment \(path) from \(startValue) by \(step): the numbers must be finite")))
      return
    }
    let context = self.context
    do throws(WebcomError) {
      try client.write(
        .increment(location, start: startValue, step: step),
        answer: target.answer { context.value($0) })
    } catch {
      target.deliver(.failure(error))
    }
  }

  /// Runs a transaction: `function` computes the new value from the current one, and the back end
  /// writes it only if the value did not change meanwhile; otherwise `function` runs again with
  /// the newer value (at most 25 times).
  ///
  /// `function` first runs on the calling thread, and again there or on an internal queue; it
  /// must not block.
  ///
  /// A plain write of this service (`set`, `clear`, `merge`, `push`) at, above or below the node
  /// while the transaction runs aborts it: it is not re-run and reports `committed == false`
  /// (unless the write it had already sent succeeds at the back end). When another transaction
  /// of this service changed the value while `function` ran, `function` runs again at once with
  /// that value, without a round trip and without using up one of the 25 attempts: a service's
  /// own transactions never conflict with each other at the back end.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed (but for
  /// top-level code: see ``set(_:at:queue:then:)``).
  ///
  /// - Parameters:
  ///   - function: Maps the current value (null when nothing is known yet) to an operation.
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives whether the transaction committed and the final value;
  ///     `transactionTooManyRetries` after 25 conflicts, encoding errors of the returned value,
  ///     `invalidValue` or `invalidPath` when the returned value cannot be stored at the node
  ///     (over the limits of paths: nothing is written).
  public func transaction(
    _ function: @escaping DatasyncTransaction.Function, queue: DispatchQueue = .main,
    then: ((WebcomResult<DatasyncTransaction.Result>) -> Void)? = nil
  ) {
    transaction(function, target: CallbackTarget(queue: queue, then: then))
  }

  /// Runs a transaction for `target`, as ``transaction(_:queue:then:)``.
  func transaction(
    _ function: @escaping DatasyncTransaction.Function,
    target: CallbackTarget<DatasyncTransaction.Result>
  ) {
    let context = self.context
    client.transaction(at: location) { current -> WebcomResult<JSONValue?> in
      switch function(context.value(current)) {
      case .abort: return .success(nil)
      case .clear: return .success(.null)
      case .set(let payload):
        do throws(WebcomError) {
          return .success(try JSONValue.fromEncodable(payload, encoder: context.encoder))
        } catch {
          return .failure(error)
        }
      }
    } completion: { result in
      target.deliver(
        result.map {
          DatasyncTransaction.Result(committed: $0.committed, value: context.value($0.value))
        })
    }
  }

  /// Copies the value of this node to another node (of any manager or application); the
  /// destination's previous children are all removed.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed (but for
  /// top-level code: see ``set(_:at:queue:then:)``).
  ///
  /// - Parameters:
  ///   - destination: The node to write.
  ///   - queue: The queue `then` is called on.
  ///   - then: Called when the back end of the destination has applied the write; `invalidValue`
  ///     or `invalidPath` when the value cannot be stored at the destination (its paths would
  ///     exceed 32 levels or 768 UTF-8 bytes): nothing is written.
  public func copy(
    to destination: DatasyncNode, queue: DispatchQueue = .main,
    then: ((WebcomResult<Void>) -> Void)? = nil
  ) {
    copy(to: destination, target: CallbackTarget(queue: queue, then: then))
  }

  /// Copies the value for `target`, as ``copy(to:queue:then:)``.
  func copy(to destination: DatasyncNode, target: CallbackTarget<Void>) {
    client.read(at: location) { result in
      switch result {
      case .success(let tree):
        destination.perform(.set(destination.location, tree), at: .now, target: target)
      case .failure(let error):
        target.deliver(.failure(error))
      }
    }
  }

  /// Cancels the disconnection operations registered at this node (and below it). Operations
  /// already run by the back end are not undone.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed (but for
  /// top-level code: see ``set(_:at:queue:then:)``).
  ///
  /// - Parameters:
  ///   - queue: The queue `then` is called on.
  ///   - then: Called when the back end has cancelled them.
  public func cancelDisconnectionOperations(
    queue: DispatchQueue = .main, then: ((WebcomResult<Void>) -> Void)? = nil
  ) {
    cancelDisconnectionOperations(target: CallbackTarget(queue: queue, then: then))
  }

  /// Cancels the disconnection operations for `target`, as
  /// ``cancelDisconnectionOperations(queue:then:)``.
  func cancelDisconnectionOperations(target: CallbackTarget<Void>) {
    client.cancelDisconnectionWrites(at: location, answer: .outcome(target))
  }

  /// Sends a write; when it is refused before it starts (a path over the limits), `target` gets
  /// the error and the result is false.
  @discardableResult
  func perform(_ operation: WriteOperation, at time: DatasyncTime, target: CallbackTarget<Void>)
    -> Bool
  {
    let answer = target.outcome
    do throws(WebcomError) {
      switch time {
      case .now:
        try client.write(operation, answer: answer)
      case .nextDisconnection:
        try client.writeOnDisconnection(operation, repeating: false, answer: answer)
      case .onDisconnection:
        try client.writeOnDisconnection(operation, repeating: true, answer: answer)
      }
      return true
    } catch {
      target.deliver(.failure(error))
      return false
    }
  }
}
