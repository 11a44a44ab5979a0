import Foundation

extension DatasyncNode {
  /// Deletes the value of the node; the same as `set(nil as Int?, at:queue:then:)`.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed.
  ///
  /// - Parameters:
  ///   - time: `.now`, or a disconnection of this client (see ``set(_:at:queue:then:)``).
  ///   - queue: The queue `then` is called on.
  ///   - then: Called when the back end has applied (or registered) the write, or with its error.
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
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed; otherwise
  /// `try await node.set(value)` is used.
  ///
  /// - Parameters:
  ///   - value: The new value.
  ///   - time: When the back end applies the write.
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the outcome; errors: `encodingFailed`, `invalidValue` (NaN, infinity),
  ///     `invalidKey` (a forbidden character in a key), or the back end's rejection. On error
  ///     nothing is written.
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

  /// Merges an object into the value of the node: the children it names are replaced (or
  /// deleted when null), the other children are kept.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed.
  ///
  /// - Parameters:
  ///   - value: A value that encodes to a JSON object.
  ///   - time: When the back end applies the write (see ``set(_:at:queue:then:)``).
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the outcome; `invalidArgument` when the value is not an object, and the
  ///     errors of ``set(_:at:queue:then:)``.
  public func merge<T: Encodable>(
    with value: T, at time: DatasyncTime = .now, queue: DispatchQueue = .main,
    then: ((WebcomResult<Void>) -> Void)? = nil
  ) {
    let target = CallbackTarget(queue: queue, then: then)
    do throws(WebcomError) {
      let children = try MergeChildren.of(value, encoder: context.encoder)
      perform(.merge(location, children), at: time, target: target)
    } catch {
      target.deliver(.failure(error))
    }
  }

  /// Adds a child with a push identifier key (chronologically ordered) and the given value.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed.
  ///
  /// - Parameters:
  ///   - value: The value of the new child.
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the outcome (errors as for ``set(_:at:queue:then:)``).
  /// - Returns: The new child, or nil when the value cannot be encoded (`then` gets the error).
  @discardableResult
  public func push<T: Encodable>(
    _ value: T, queue: DispatchQueue = .main, then: ((WebcomResult<Void>) -> Void)? = nil
  ) -> DatasyncNode? {
    let target = CallbackTarget(queue: queue, then: then)
    do throws(WebcomError) {
      let tree = try JSONValue.fromEncodable(value, encoder: context.encoder)
      let child = createChild()
      perform(.set(child.location, tree), at: .now, target: target)
      return child
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
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed.
  ///
  /// - Parameters:
  ///   - startValue: The value assumed for a null node.
  ///   - step: The amount to add (negative to decrement).
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the new value written by the back end; `notANumber` when the node holds
  ///     something else than a number (nothing is written), `invalidValue` for a NaN or infinite
  ///     argument or sum.
  public func increment(
    from startValue: Double = 0, by step: Double = 1, queue: DispatchQueue = .main,
    then: ((WebcomResult<DatasyncValue>) -> Void)? = nil
  ) {
    let target = CallbackTarget(queue: queue, then: then)
    guard startValue.isFinite, step.isFinite else {
      target.deliver(
        .failure(
          WebcomError(
            .invalidValue,
            "cannot increment \(path) from \(startValue) by \(step): the numbers must be finite")))
      return
    }
    let context = self.context
    core.write(.increment(location, start: startValue, step: step)) { result in
      target.deliver(result.map(context.value))
    }
  }

  /// Runs a transaction: `function` computes the new value from the current one, and the back end
  /// writes it only if the value did not change meanwhile; otherwise `function` runs again with
  /// the newer value (at most 25 times).
  ///
  /// `function` first runs on the calling thread, re-runs on an internal queue; it must not
  /// block.
  ///
  /// A plain write of this service (`set`, `clear`, `merge`, `push`) at, above or below the node
  /// while the transaction runs aborts it: it is not re-run and reports `committed == false`
  /// (unless the write it had already sent succeeds at the back end).
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed.
  ///
  /// - Parameters:
  ///   - function: Maps the current value (null when nothing is known yet) to an operation.
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives whether the transaction committed and the final value;
  ///     `transactionTooManyRetries` after 25 conflicts, encoding errors of the returned value.
  public func transaction(
    _ function: @escaping DatasyncTransaction.Function, queue: DispatchQueue = .main,
    then: ((WebcomResult<DatasyncTransaction.Result>) -> Void)? = nil
  ) {
    let target = CallbackTarget(queue: queue, then: then)
    let context = self.context
    core.transaction(at: location) { current -> WebcomResult<JSONValue?> in
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
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed.
  ///
  /// - Parameters:
  ///   - destination: The node to write.
  ///   - queue: The queue `then` is called on.
  ///   - then: Called when the back end of the destination has applied the write.
  public func copy(
    to destination: DatasyncNode, queue: DispatchQueue = .main,
    then: ((WebcomResult<Void>) -> Void)? = nil
  ) {
    let target = CallbackTarget(queue: queue, then: then)
    core.read(at: location) { result in
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
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed.
  ///
  /// - Parameters:
  ///   - queue: The queue `then` is called on.
  ///   - then: Called when the back end has cancelled them.
  public func cancelDisconnectionOperations(
    queue: DispatchQueue = .main, then: ((WebcomResult<Void>) -> Void)? = nil
  ) {
    let target = CallbackTarget(queue: queue, then: then)
    core.cancelDisconnectionWrites(at: location) { result in target.deliver(result.map { _ in }) }
  }

  func perform(_ operation: WriteOperation, at time: DatasyncTime, target: CallbackTarget<Void>) {
    let answer: ClientCore.Answer = { result in target.deliver(result.map { _ in }) }
    switch time {
    case .now: core.write(operation, answer: answer)
    case .nextDisconnection: core.writeOnDisconnection(operation, repeating: false, answer: answer)
    case .onDisconnection: core.writeOnDisconnection(operation, repeating: true, answer: answer)
    }
  }
}
