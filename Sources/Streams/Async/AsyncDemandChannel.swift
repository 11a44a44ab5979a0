/// The subscriber behind `values`: it requests one value per `next()` and hands it to the task
/// awaiting it.
///
/// Subscribes when created. `cancel()` (task cancellation, or the iterator going away) cancels
/// the upstream subscription and ends the sequence.
internal final class AsyncDemandChannel<Input, Failure: Error>: Subscriber, Cancellable,
  @unchecked Sendable
{
  typealias Step = Result<Input?, Failure>
  typealias Waiter = UnsafeContinuation<UnsafeTransfer<Step>, Never>

  private let lock = StreamsLock()
  // Protected by `lock`: the upstream subscription, the awaiting task, a value received without a
  // waiter, whether a `next()` asked before the subscription arrived, and the end state.
  private var subscription: (any Subscription)?
  private var waiter: Waiter?
  private var ready: Input?
  private var wantsValue = false
  private var end: End?

  private enum End {
    case finished
    case failed(Failure)
    case delivered
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard self.subscription == nil, end == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    self.subscription = subscription
    let wantsValue = self.wantsValue
    lock.unlock()
    if wantsValue {
      subscription.request(.max(1))
    }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard let waiter else {
      if end == nil { ready = input }
      lock.unlock()
      return .none
    }
    self.waiter = nil
    lock.unlock()
    waiter.resume(returning: UnsafeTransfer(.success(input)))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard end == nil else {
      lock.unlock()
      return
    }
    subscription = nil
    let waiter = self.waiter
    self.waiter = nil
    switch completion {
    case .finished:
      end = .finished
    case .failure(let error):
      end = waiter == nil ? .failed(error) : .delivered
    }
    lock.unlock()
    guard let waiter else { return }
    waiter.resume(ending: completion)
  }

  /// Waits for the next value: nil at the end, a failure once.
  func next(isolation actor: isolated (any Actor)? = #isolation) async -> Step {
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (waiter: Waiter) in
        lock.lock()
        if let value = ready {
          ready = nil
          lock.unlock()
          waiter.resume(returning: UnsafeTransfer(.success(value)))
          return
        }
        switch end {
        case .failed(let error):
          end = .delivered
          lock.unlock()
          waiter.resume(returning: UnsafeTransfer(.failure(error)))
          return
        case .finished, .delivered:
          lock.unlock()
          waiter.resume(returning: UnsafeTransfer(.success(nil)))
          return
        case nil:
          break
        }
        self.waiter = waiter
        let subscription = self.subscription
        wantsValue = subscription == nil
        lock.unlock()
        subscription?.request(.max(1))
      }.value
    } onCancel: {
      cancel()
    }
  }

  func cancel() {
    lock.lock()
    let subscription = self.subscription
    let waiter = self.waiter
    self.subscription = nil
    self.waiter = nil
    ready = nil
    if end == nil { end = .finished }
    lock.unlock()
    subscription?.cancel()
    waiter?.resume(returning: UnsafeTransfer(.success(nil)))
  }
}

/// Cancels the channel when the last copy of an iterator goes away (a loop left with `break`).
internal final class AsyncIteratorLifetime: Sendable {
  private let cancellable: any Cancellable & Sendable

  init(_ cancellable: any Cancellable & Sendable) {
    self.cancellable = cancellable
  }

  deinit {
    cancellable.cancel()
  }
}
