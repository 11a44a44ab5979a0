import Datasync
import Foundation
import Streams

/// Delivers the outputs of a Datasync stream to one subscriber, within its demand.
///
/// Outputs are produced on the conduit's serial `queue` (the queue of the underlying Datasync
/// subscriptions) and delivered on it, so calls into the subscriber never overlap. Outputs that
/// arrive while the subscriber has no demand are kept, in order and without limit, until it asks
/// for more: a stream of database events never drops one. `cancel()` runs the cancel handler (which
/// cancels the Datasync subscriptions) at once; nothing is delivered after it.
final class StreamConduit<Downstream: Subscriber>: Subscription, QueueDrainable,
  @unchecked Sendable
{
  typealias Output = Downstream.Input
  typealias Completion = Subscribers.Completion<Downstream.Failure>

  let queue: DispatchQueue
  private let lock = NSLock()
  // Protected by `lock`: the subscriber (nil once cancelled or completed), outstanding demand,
  // kept outputs from `head` on, the completion waiting for the kept outputs, the cancel handler.
  private var downstream: Downstream?
  private var demand = Subscribers.Demand.none
  private var buffer: [Output] = []
  private var head = 0
  private var pendingCompletion: Completion?
  private var cancelHandler: (() -> Void)?

  init(_ downstream: Downstream, label: String) {
    self.downstream = downstream
    queue = DispatchQueue(label: label)
  }

  /// Runs `handler` when the stream is cancelled or completes; at once if that already happened.
  func onTermination(_ handler: @escaping () -> Void) {
    lock.lock()
    guard downstream != nil else {
      lock.unlock()
      handler()
      return
    }
    cancelHandler = handler
    lock.unlock()
  }

  /// Keeps `output` for delivery. Called on `queue`.
  func send(_ output: Output) {
    lock.lock()
    guard downstream != nil, pendingCompletion == nil else {
      lock.unlock()
      return
    }
    buffer.append(output)
    lock.unlock()
    drain()
  }

  /// Ends the stream after the kept outputs. Called on `queue`.
  func finish(_ completion: Completion) {
    lock.lock()
    guard downstream != nil, pendingCompletion == nil else {
      lock.unlock()
      return
    }
    pendingCompletion = completion
    lock.unlock()
    drain()
  }

  func request(_ more: Subscribers.Demand) {
    lock.lock()
    guard downstream != nil, more > 0 else {
      lock.unlock()
      return
    }
    demand += more
    lock.unlock()
    drainLater()
  }

  /// Ends the stream from another queue than `queue`.
  func finishLater(_ completion: Completion) {
    lock.lock()
    if downstream != nil, pendingCompletion == nil {
      pendingCompletion = completion
    }
    lock.unlock()
    drainLater()
  }

  private func drainLater() {
    let target: any QueueDrainable = self
    queue.async { target.drain() }
  }

  func cancel() {
    lock.lock()
    let handler = cancelHandler
    let downstream = self.downstream
    let dropped = buffer
    cancelHandler = nil
    self.downstream = nil
    buffer = []
    head = 0
    lock.unlock()
    handler?()
    withExtendedLifetime((downstream, dropped)) {}
  }

  /// Delivers kept outputs while there is demand, then the completion. Runs on `queue` only.
  func drain() {
    while true {
      lock.lock()
      guard let downstream else {
        lock.unlock()
        return
      }
      if head < buffer.count {
        guard demand > 0 else {
          lock.unlock()
          return
        }
        let output = buffer[head]
        head += 1
        if head == buffer.count {
          buffer.removeAll(keepingCapacity: true)
          head = 0
        }
        demand -= 1
        lock.unlock()
        let more = downstream.receive(output)
        lock.lock()
        demand += more
        lock.unlock()
        continue
      }
      guard let completion = pendingCompletion else {
        lock.unlock()
        return
      }
      self.downstream = nil
      let handler = cancelHandler
      cancelHandler = nil
      lock.unlock()
      downstream.receive(completion: completion)
      handler?()
      return
    }
  }
}

/// A conduit seen without its generic types, so that closures sent to its queue capture none.
protocol QueueDrainable: AnyObject, Sendable {
  func drain()
}
