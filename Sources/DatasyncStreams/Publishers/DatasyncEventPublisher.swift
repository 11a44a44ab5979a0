import Datasync
import Foundation
import Streams

/// A publisher over one Datasync subscription: each subscriber gets its own subscription, made
/// when it subscribes and cancelled when it cancels.
///
/// `transform` turns each event into an output, or nil to skip the event. A revocation fails the
/// stream with its error; an implicit cancellation by the database finishes it.
struct DatasyncEventPublisher<Output>: Publisher {
  typealias Failure = WebcomError

  let node: DatasyncNode
  let eventType: DatasyncEventType
  let childrenConstraint: DatasyncChildrenConstraint
  let transform: (DatasyncEvent) -> Output?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == WebcomError {
    let stream = DatasyncStreamSubscription(
      subscriber, label: "DatasyncStreams.events \(node.path)")
    subscriber.receive(subscription: stream)
    let transform = self.transform
    let subscription: DatasyncSubscription
    do {
      subscription = try node.subscribeThrows(
        to: eventType, childrenConstraint: childrenConstraint, stores: false,
        queue: stream.queue,
        onEvent: { [weak stream] event in
          guard let stream, let output = transform(event) else { return }
          stream.send(output)
        },
        onCompletion: { [weak stream] completion in
          stream?.finish(streamCompletion(of: completion))
        })
    } catch {
      stream.finishLater(.failure(error))
      return
    }
    stream.onTermination { subscription.cancel() }
  }
}

/// The end of a stream for the end of its Datasync subscription: a revocation fails the stream,
/// a cancellation by the database finishes it.
func streamCompletion(of completion: DatasyncSubscriptionCompletion)
  -> Subscribers.Completion<WebcomError>
{
  switch completion {
  case .revoked(let error): .failure(error)
  case .cancelled: .finished
  }
}
