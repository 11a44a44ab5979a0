import Foundation

/// Delivers states to one observer's queue: the state current when the observation started, then
/// each change, in order, never the same state twice in a row.
final class StateRelay<State: Equatable & Sendable>: @unchecked Sendable {
  private let queue: DispatchQueue
  private let onChange: UncheckedBox<(State) -> Void>
  private let lock = NSLock()
  // Protected by `lock`: whether a change arrived (the initial state is then stale), the last
  // state dispatched, and whether the observation is over.
  private var sawChange = false
  private var last: State?
  private var isStopped = false

  init(queue: DispatchQueue, onChange: @escaping (State) -> Void) {
    self.queue = queue
    self.onChange = UncheckedBox(onChange)
  }

  /// Dispatches the state read when the observation started, unless a change came first.
  func deliverInitial(_ state: State) {
    lock.withLock {
      guard !sawChange else { return }
      dispatchLocked(state)
    }
  }

  func deliverChange(_ state: State) {
    lock.withLock {
      sawChange = true
      dispatchLocked(state)
    }
  }

  func stop() {
    lock.withLock { isStopped = true }
  }

  /// Called with the lock held, so that dispatches keep the order of the states; `queue.async`
  /// only enqueues and calls nothing of the observer's.
  private func dispatchLocked(_ state: State) {
    guard !isStopped, state != last else { return }
    last = state
    let onChange = self.onChange
    queue.async { [self] in
      guard !lock.withLock({ isStopped }) else { return }
      onChange.value(state)
    }
  }
}
