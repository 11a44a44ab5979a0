/// The subscriber behind `values`: every waiting `next()` adds one to the demand and receives one
/// value, in the order the calls began.
///
/// Subscribes when created. Several tasks may await `next()` on copies of one iterator: each
/// waits for its own value. Demand asked before the subscription arrives accumulates and is
/// requested when it does (three early `next()` calls request `.max(3)`). A value that arrives
/// with no `next()` waiting is not delivered (Combine traps there; this channel drops it). A value
/// that arrives before the subscription is not delivered either and, as with Combine, resumes every
/// waiting call with nil while the demand they asked stays for the subscription. The upstream's end
/// resumes every waiting call, as Combine does: on finish all with nil; on failure the oldest
/// waiting call throws the error and the others get nil (a failure that arrives with none waiting
/// is thrown by the next call, once). `cancel()` (task cancellation, or the iterator going away)
/// cancels the upstream subscription and resumes every waiting call with nil.
@usableFromInline
internal final class AsyncDemandChannel<Input, Failure: Error>: Subscriber, Cancellable,
  @unchecked Sendable
{
  @usableFromInline typealias Step = Result<Input?, Failure>
  @usableFromInline typealias Waiter = UnsafeContinuation<UnsafeTransfer<Step>, Never>

  @usableFromInline let lock = StreamsLock()
  // Protected by `lock`: the upstream subscription, the waiting calls (oldest first, `head`
  // indexing the oldest still waiting), the demand asked before the subscription arrived, and
  // the end state.
  @usableFromInline var subscription: (any Subscription)?
  @usableFromInline var waiters: [Waiter] = []
  @usableFromInline var head = 0
  @usableFromInline var demandBeforeSubscription = Subscribers.Demand.none
  @usableFromInline var end: End?

  @usableFromInline
  init() {}

  @usableFromInline
  enum End {
    case finished
    case failed(Failure)
    case delivered
  }

  @inlinable
  func receive(subscription: any Subscription) {
    lock.lock()
    guard self.subscription == nil, end == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    self.subscription = subscription
    let demand = demandBeforeSubscription
    demandBeforeSubscription = .none
    lock.unlock()
    if demand > 0 {
      subscription.request(demand)
    }
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard subscription != nil else {
      let waiting = takeWaiters()
      lock.unlock()
      for waiter in waiting {
        waiter.resume(returning: UnsafeTransfer(.success(nil)))
      }
      return .none
    }
    guard head < waiters.count else {
      lock.unlock()
      return .none
    }
    let waiter = waiters[head]
    head += 1
    if head == waiters.count {
      waiters.removeAll(keepingCapacity: true)
      head = 0
    }
    lock.unlock()
    waiter.resume(returning: UnsafeTransfer(.success(input)))
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard end == nil else {
      lock.unlock()
      return
    }
    subscription = nil
    let waiting = takeWaiters()
    switch completion {
    case .finished:
      end = .finished
    case .failure(let error):
      end = waiting.isEmpty ? .failed(error) : .delivered
    }
    lock.unlock()
    guard let oldest = waiting.first else { return }
    oldest.resume(ending: completion)
    for waiter in waiting.dropFirst() {
      waiter.resume(returning: UnsafeTransfer(.success(nil)))
    }
  }

  /// Waits for the next value: nil at the end, a failure once.
  @inlinable
  func next(isolation actor: isolated (any Actor)? = #isolation) async -> Step {
    await withTaskCancellationHandler {
      let step = await withUnsafeContinuation { (waiter: Waiter) in
        lock.lock()
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
        waiters.append(waiter)
        let subscription = self.subscription
        if subscription == nil {
          demandBeforeSubscription += 1
        }
        lock.unlock()
        subscription?.request(.max(1))
      }
      lock.synchronize()
      return step.value
    } onCancel: {
      cancel()
    }
  }

  @inlinable
  func cancel() {
    lock.lock()
    let subscription = self.subscription
    self.subscription = nil
    let waiting = takeWaiters()
    if end == nil { end = .finished }
    lock.unlock()
    subscription?.cancel()
    for waiter in waiting {
      waiter.resume(returning: UnsafeTransfer(.success(nil)))
    }
  }

  /// Removes and returns the waiting calls, oldest first. Lock held.
  @inlinable
  func takeWaiters() -> ArraySlice<Waiter> {
    let waiting = waiters[head...]
    waiters = []
    head = 0
    return waiting
  }
}

/// Cancels the channel when the last copy of an iterator goes away (a loop left with `break`).
@usableFromInline
internal final class AsyncIteratorLifetime: Sendable {
  @usableFromInline let cancellable: any Cancellable & Sendable

  @inlinable
  init(_ cancellable: any Cancellable & Sendable) {
    self.cancellable = cancellable
  }

  deinit {
    cancellable.cancel()
  }
}
