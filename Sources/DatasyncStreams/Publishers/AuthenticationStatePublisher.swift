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
    let conduit = StreamConduit(subscriber, label: "DatasyncStreams.authenticationState")
    subscriber.receive(subscription: conduit)
    let observation = service.observeState(queue: conduit.queue) { [weak conduit] state in
      conduit?.send(state)
    }
    conduit.onTermination { observation.cancel() }
  }
}
