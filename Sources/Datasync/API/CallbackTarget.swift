import Foundation

/// A `then` callback and the queue it must be called on.
struct CallbackTarget<T>: @unchecked Sendable {
  // `then` is only ever called on `queue`.
  let queue: DispatchQueue
  let then: ((WebcomResult<T>) -> Void)?

  /// Calls `then` with `result` asynchronously on `queue`.
  func deliver(_ result: WebcomResult<T>) {
    guard let then else { return }
    let box = UncheckedBox((then, result))
    queue.async { box.value.0(box.value.1) }
  }

  /// The client answer that delivers its result, mapped by `transform`, to `then`; nil without
  /// `then`, so that a caller who does not wait leaves no answer waiting in the client.
  func answer(_ transform: @escaping @Sendable (JSONValue) -> T) -> DatasyncClient.WaitingAnswer? {
    guard then != nil else { return nil }
    return .value { result in deliver(result.map(transform)) }
  }
}

extension CallbackTarget where T == Void {
  /// The client answer that delivers the outcome of a write to `then`, holding this target as it
  /// is; nil without `then`, as ``answer(_:)``.
  var outcome: DatasyncClient.WaitingAnswer? { then == nil ? nil : .outcome(self) }
}
