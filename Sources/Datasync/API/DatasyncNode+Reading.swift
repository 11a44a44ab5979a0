import Foundation

extension DatasyncNode {
  /// Gets the complete value of the node, asynchronously.
  ///
  /// When a subscription keeps the node up to date, the value comes from the local cache (with
  /// the local writes not yet acknowledged); otherwise it is read from the back end, and waits for
  /// the connection when the service is disconnected.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed; otherwise
  /// `try await node.value()` is used.
  ///
  /// - Parameters:
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the value.
  public func value(
    queue: DispatchQueue = .main, then: ((WebcomResult<DatasyncValue>) -> Void)? = nil
  ) {
    let target = CallbackTarget(queue: queue, then: then)
    let context = self.context
    core.read(at: location) { result in target.deliver(result.map(context.value)) }
  }

  /// Gets the value of the node decoded with the application's ``WebcomApplication/jsonDecoder``.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the decoded value, or an error with code `decodingFailed`.
  public func decodedValue<T: Decodable>(
    as type: T.Type = T.self, queue: DispatchQueue = .main,
    then: ((WebcomResult<T>) -> Void)? = nil
  ) {
    let target = CallbackTarget(queue: queue, then: then)
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
    core.read(at: location) { finish.value($0) }
  }
}
