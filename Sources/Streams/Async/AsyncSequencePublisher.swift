extension AsyncSequence {
  /// A publisher that emits the elements of this asynchronous sequence.
  ///
  /// ```swift
  /// let cancellable = stream.publisher.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// ```
  public var publisher: Publishers.FromAsyncSequence<Self> {
    Publishers.FromAsyncSequence(self)
  }
}

extension Publishers {
  /// A publisher that emits the elements of an asynchronous sequence, pulling each element only
  /// while its subscriber has demand.
  ///
  /// Iteration runs in a task started on the first demand; the task pulls the next element only
  /// when demand is outstanding. Cancelling the subscription cancels the task. The sequence ending
  /// finishes the publisher; the sequence throwing fails it with the error.
  public struct FromAsyncSequence<Base: AsyncSequence>: Publisher {
    public typealias Output = Base.Element
    public typealias Failure = Base.Failure

    /// The sequence whose elements are emitted.
    public let base: Base

    /// A publisher of `base`'s elements.
    public init(_ base: Base) {
      self.base = base
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      subscriber.receive(subscription: AsyncSequenceSubscription(subscriber, base: base))
    }
  }
}

/// The body of an iteration task, seen without its generic types so the task captures none.
private protocol AsyncIteration: Sendable {
  func iterate() async
}

/// The subscription of `Publishers.FromAsyncSequence`: runs the iteration task.
private final class AsyncSequenceSubscription<Downstream: Subscriber, Base: AsyncSequence>:
  Subscription, AsyncIteration, OperatorNamed, @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
  private let base: Base
  private let lock = StreamsLock()
  // Protected by `lock`: the subscriber (nil once ended), outstanding demand, the task, and the
  // task's continuation while it waits for demand. `base` is immutable.
  private var downstream: Downstream?
  private var demand = Subscribers.Demand.none
  private var task: Task<Void, Never>?
  private var demandWaiter: UnsafeContinuation<Bool, Never>?

  init(_ downstream: Downstream, base: Base) {
    self.downstream = downstream
    self.base = base
  }

  var operatorName: String { "FromAsyncSequence" }

  func request(_ newDemand: Subscribers.Demand) {
    lock.lock()
    guard downstream != nil, newDemand > 0 else {
      lock.unlock()
      return
    }
    demand += newDemand
    let waiter = demandWaiter
    demandWaiter = nil
    if task == nil {
      let iteration: any AsyncIteration = self
      task = Task { await iteration.iterate() }
    }
    lock.unlock()
    waiter?.resume(returning: true)
  }

  func cancel() {
    lock.lock()
    let task = self.task
    let waiter = demandWaiter
    let downstream = self.downstream
    self.downstream = nil
    demandWaiter = nil
    lock.unlock()
    task?.cancel()
    waiter?.resume(returning: false)
    withExtendedLifetime(downstream) {}
  }

  func iterate() async {
    var iterator = base.makeAsyncIterator()
    while await waitForDemand() {
      let element: Base.Element?
      do {
        element = try await iterator.next(isolation: nil)
      } catch {
        finish(.failure(error))
        return
      }
      guard let element else {
        finish(.finished)
        return
      }
      lock.lock()
      guard let downstream else {
        lock.unlock()
        return
      }
      demand -= 1
      lock.unlock()
      let more = downstream.receive(element)
      lock.lock()
      demand += more
      lock.unlock()
    }
  }

  /// Returns true once demand is outstanding, false when cancelled.
  private func waitForDemand() async -> Bool {
    await withUnsafeContinuation { (waiter: UnsafeContinuation<Bool, Never>) in
      lock.lock()
      if downstream == nil {
        lock.unlock()
        waiter.resume(returning: false)
      } else if demand > 0 {
        lock.unlock()
        waiter.resume(returning: true)
      } else {
        demandWaiter = waiter
        lock.unlock()
      }
    }
  }

  private func finish(_ completion: Subscribers.Completion<Base.Failure>) {
    lock.lock()
    let downstream = self.downstream
    self.downstream = nil
    lock.unlock()
    downstream?.receive(completion: completion)
  }
}
