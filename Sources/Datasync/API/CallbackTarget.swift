import Foundation

/// A `then` callback and the queue it must be called on.
///
/// A transfer box, unchecked for sendability and without a lock: it carries a caller's
/// non-`Sendable` callback across threads to `queue`, the one place the callback is ever called;
/// nothing reads or changes it anywhere else. Without a queue, the callback is called at once on
/// the thread that has the result: only for callbacks that are safe to call from any thread and
/// return at once, such as the resumption of a continuation by the `async` forms.
struct CallbackTarget<T>: @unchecked Sendable {
  // Declared before `queue`: the client's waiting answers (``DatasyncClient/WaitingAnswer``) then
  // fit in 24 bytes instead of 32, their case stored in bits that the callback's context and an
  // answer's context both leave unused.
  let then: ((WebcomResult<T>) -> Void)?
  let queue: DispatchQueue?

  init(queue: DispatchQueue?, then: ((WebcomResult<T>) -> Void)?) {
    self.then = then
    self.queue = queue
  }

  /// Calls `then` with `result` asynchronously on `queue`, or at once without a queue.
  func deliver(_ result: WebcomResult<T>) {
    guard let then else { return }
    guard let queue else { return then(result) }
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

extension CallbackTarget where T: Sendable {
  /// Starts an operation with a target without a queue and waits for its result: the `async`
  /// forms' way to call their callback form. The result resumes the waiting task straight from
  /// the thread that has it, then the task yields: an embedded database answers within the call,
  /// and the call must stay a suspension point, so that a loop of writes lets the other tasks of
  /// its executor run.
  static func result(of start: (CallbackTarget<T>) -> Void) async throws -> T {
    let value = try await withCheckedThrowingContinuation { continuation in
      start(CallbackTarget(queue: nil) { result in continuation.resume(with: result) })
    }
    await Task.yield()
    return value
  }
}
