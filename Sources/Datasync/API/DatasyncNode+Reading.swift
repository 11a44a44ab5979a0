import Foundation

extension DatasyncNode {
  /// Gets the complete value of the node, asynchronously.
  ///
  /// When the local cache holds the complete value — a subscription keeps the node (or an
  /// ancestor) up to date, or a local `set` of the node or of an ancestor is not acknowledged
  /// yet — the value comes from the cache, with the local writes not yet acknowledged. Otherwise
  /// it is read from the back end: while the connection is lost it waits for the connection, but
  /// while the application has disabled it (``DatasyncService/isConnectionEnabled`` false) it
  /// fails at once with `disconnected`, and a read still waiting when the application disables
  /// the connection fails then (or is answered from the cache if it has become complete).
  ///
  /// `then` is required: a read without it would be lost work, and without a default
  /// `try await node.value()` always means the `async` form, in top-level code too (where Swift
  /// would otherwise choose this form, see ``set(_:at:queue:then:)``).
  ///
  /// - Parameters:
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the value, or an error with code `disconnected`.
  public func value(
    queue: DispatchQueue = .main, then: @escaping (WebcomResult<DatasyncValue>) -> Void
  ) {
    value(target: CallbackTarget(queue: queue, then: then))
  }

  /// Gets the complete value of the node for `target`, as ``value(queue:then:)``.
  func value(target: CallbackTarget<DatasyncValue>) {
    let context = self.context
    client.read(at: location) { result in target.deliver(result.map(context.value)) }
  }

  /// Gets the value of the node decoded with the application's ``WebcomApplication/jsonDecoder``.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the decoded value, or an error with code `decodingFailed`, or
  ///     `disconnected` as for ``value(queue:then:)``; required, as there.
  public func decodedValue<T: Decodable>(
    as type: T.Type = T.self, queue: DispatchQueue = .main,
    then: @escaping (WebcomResult<T>) -> Void
  ) {
    decodedValue(as: type, target: CallbackTarget(queue: queue, then: then))
  }

  /// Gets the value of the node decoded for `target`, as ``decodedValue(as:queue:then:)``.
  func decodedValue<T: Decodable>(as type: T.Type, target: CallbackTarget<T>) {
    let context = self.context
    let finish = UncheckedBox { (result: WebcomResult<JSONValue>) in
      target.deliver(
        result.flatMap { tree in
          do throws(WebcomError) {
            return .success(try tree.decoded(as: type, decoder: context.decoder))
          } catch {
            return .failure(error)
          }
        })
    }
    client.read(at: location) { finish.value($0) }
  }
}
