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
    let conduit = StreamConduit(subscriber, label: "DatasyncStreams.state")
    subscriber.receive(subscription: conduit)
    let observation = manager.observeState(queue: conduit.queue) { [weak conduit] state in
      conduit?.send(state)
    }
    let manager = self.manager
    conduit.onTermination {
      observation.cancel()
      withExtendedLifetime(manager) {}
    }
  }
}
