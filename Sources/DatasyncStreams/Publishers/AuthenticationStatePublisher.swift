import Datasync
import Foundation
import Streams

/// The authentication state of an application as a stream: the current state, then each change.
///
/// Each subscriber gets its own observation of `service`, stopped when it cancels.
struct AuthenticationStatePublisher: Publisher {
  typealias Output = AuthenticationState
  typealias Failure = Never

  let service: AuthenticationService

  func receive<S: Subscriber>(subscriber: S)
  where S.Input == AuthenticationState, S.Failure == Never {
    let stream = DatasyncStreamSubscription(
      subscriber, label: "DatasyncStreams.authenticationState")
    subscriber.receive(subscription: stream)
    let observation = service.observeState(queue: stream.queue) { [weak stream] state in
      stream?.send(state)
    }
    stream.onTermination { observation.cancel() }
  }
}
