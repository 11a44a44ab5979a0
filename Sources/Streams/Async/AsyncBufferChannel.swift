/// The subscriber behind `values(bufferingPolicy:)`: it requests unlimited values and keeps them,
/// as its policy says, until the awaiting task takes them.
@usableFromInline
internal final class AsyncBufferChannel<Input, Failure: Error>: Subscriber, Cancellable,
  @unchecked Sendable
{
  @usableFromInline typealias Step = Result<Input?, Failure>
  @usableFromInline typealias Waiter = UnsafeContinuation<UnsafeTransfer<Step>, Never>

  @usableFromInline let policy: AsyncBufferingPolicy
  @usableFromInline let lock = StreamsLock()
  // Protected by `lock`: the upstream subscription, the awaiting task, the kept values (from
  // `head` on), the completion not yet handed out, and whether the sequence ended.
  @usableFromInline var subscription: (any Subscription)?
  @usableFromInline var waiter: Waiter?
  @usableFromInline var buffer: [Input] = []
  @usableFromInline var head = 0
  @usableFromInline var completion: Subscribers.Completion<Failure>?
  @usableFromInline var isTerminated = false

  @inlinable
  init(policy: AsyncBufferingPolicy) {
    self.policy = policy
  }

  @inlinable var bufferedCount: Int { buffer.count - head }

  @inlinable
  func receive(subscription: any Subscription) {
    lock.lock()
    guard self.subscription == nil, !isTerminated, completion == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    self.subscription = subscription
    lock.unlock()
    subscription.request(.unlimited)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    if isTerminated || completion != nil {
      lock.unlock()
      return .none
    }
    if let waiter {
      self.waiter = nil
      lock.unlock()
      waiter.resume(returning: UnsafeTransfer(.success(input)))
      return .none
    }
    switch policy {
    case .unbounded:
      buffer.append(input)
    case .bufferingOldest(let limit):
      if bufferedCount < limit { buffer.append(input) }
    case .bufferingNewest(let limit):
      guard limit > 0 else { break }
      if bufferedCount == limit { head += 1 }
      buffer.append(input)
      compact()
    }
    lock.unlock()
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard !isTerminated, self.completion == nil else {
      lock.unlock()
      return
    }
    subscription = nil
    guard let waiter else {
      self.completion = completion
      lock.unlock()
      return
    }
    self.waiter = nil
    isTerminated = true
    lock.unlock()
    waiter.resume(ending: completion)
  }

  /// Takes the oldest kept value, or waits for one; nil at the end, a failure once.
  @inlinable
  func next(isolation actor: isolated (any Actor)? = #isolation) async -> Step {
    await withTaskCancellationHandler {
      let step = await withUnsafeContinuation { (waiter: Waiter) in
        lock.lock()
        if bufferedCount > 0 {
          let value = buffer[head]
          head += 1
          compact()
          lock.unlock()
          waiter.resume(returning: UnsafeTransfer(.success(value)))
          return
        }
        if isTerminated {
          lock.unlock()
          waiter.resume(returning: UnsafeTransfer(.success(nil)))
          return
        }
        if let completion {
          self.completion = nil
          isTerminated = true
          lock.unlock()
          waiter.resume(ending: completion)
          return
        }
        self.waiter = waiter
        lock.unlock()
      }
      lock.synchronize()
      return step.value
    } onCancel: {
      cancel()
    }
  }

  /// Drops consumed slots once they make up half the storage. Called with the lock held.
  @inlinable
  func compact() {
    if head == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 32 && head * 2 > buffer.count {
      buffer.removeFirst(head)
      head = 0
    }
  }

  @inlinable
  func cancel() {
    lock.lock()
    let subscription = self.subscription
    let waiter = self.waiter
    let dropped = buffer
    self.subscription = nil
    self.waiter = nil
    buffer = []
    head = 0
    isTerminated = true
    lock.unlock()
    subscription?.cancel()
    waiter?.resume(returning: UnsafeTransfer(.success(nil)))
    withExtendedLifetime(dropped) {}
  }
}
