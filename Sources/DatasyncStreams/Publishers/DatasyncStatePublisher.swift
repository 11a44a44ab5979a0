import Datasync
import Foundation
import Streams

/// The connection state of a service as a stream: the current state, then each change.
///
/// Each subscriber gets its own observation through `manager`, stopped when it cancels.
struct DatasyncStatePublisher: Publisher {
  typealias Output = DatasyncState
  typealias Failure = Never

  let manager: DatasyncManager

  func receive<S: Subscriber>(subscriber: S) where S.Input == DatasyncState, S.Failure == Never {
    let stream = DatasyncStreamSubscription(subscriber, label: "DatasyncStreams.state")
    subscriber.receive(subscription: stream)
    let observation = manager.observeState(queue: stream.queue) { [weak stream] state in
      stream?.send(state)
    }
    let manager = self.manager
    stream.onTermination {
      observation.cancel()
      withExtendedLifetime(manager) {}
    }
  }
}
