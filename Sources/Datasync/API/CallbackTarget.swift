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
}
