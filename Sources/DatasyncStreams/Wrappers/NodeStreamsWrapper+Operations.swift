import Datasync
import Foundation
import Streams

/// The queue on which one-shot operations receive the back end's answer.
private let answerQueue = DispatchQueue(label: "DatasyncStreams.answers", attributes: .concurrent)

extension DatasyncNode.StreamsWrapper {
  /// A one-shot publisher: `start` runs when a subscriber subscribes (not before), and its answer
  /// is the publisher's single value, or its failure.
  private func operation<Output>(
    _ start: @escaping (DispatchQueue, @escaping (WebcomResult<Output>) -> Void) -> Void
  ) -> AnyPublisher<Output, WebcomError> {
    Deferred {
      Future<Output, WebcomError> { promise in
        start(answerQueue) { promise($0) }
      }
    }
    .eraseToAnyPublisher()
  }

  /// Reads the node's value once. Lazy: the read starts when subscribed.
  public func value() -> AnyPublisher<DatasyncValue, WebcomError> {
    operation { self.wrapped.value(queue: $0, then: $1) }
  }

  /// Reads the node's value once, decoded as `type`; fails with `decodingFailed` when it cannot be.
  public func decodedValue<T: Decodable & Sendable>(as type: T.Type = T.self)
    -> AnyPublisher<T, WebcomError>
  {
    operation { self.wrapped.decodedValue(as: type, queue: $0, then: $1) }
  }

  /// Sets the node's value; emits once the back end has answered. Lazy: the write starts when
  /// subscribed; cancelling afterwards does not undo it.
  public func set<T: Encodable>(_ value: T, at time: DatasyncTime = .now)
    -> AnyPublisher<Void, WebcomError>
  {
    operation { self.wrapped.set(value, at: time, queue: $0, then: $1) }
  }

  /// Merges `value`'s children into the node's; emits once the back end has answered. Lazy.
  public func merge<T: Encodable>(with value: T, at time: DatasyncTime = .now)
    -> AnyPublisher<Void, WebcomError>
  {
    operation { self.wrapped.merge(with: value, at: time, queue: $0, then: $1) }
  }

  /// Clears the node's value; emits once the back end has answered. Lazy.
  public func clear(at time: DatasyncTime = .now) -> AnyPublisher<Void, WebcomError> {
    operation { self.wrapped.clear(at: time, queue: $0, then: $1) }
  }

  /// Adds a child with a push identifier and `value`; emits the child's wrapper once the back end
  /// has answered. Lazy: the child is created when subscribed.
  public func push<T: Encodable>(_ value: T) -> AnyPublisher<
    DatasyncNode.StreamsWrapper, WebcomError
  > {
    operation { queue, answer in
      let child = self.wrapped.createChild()
      child.set(value, queue: queue) { answer($0.map { child.streams }) }
    }
  }

  /// Atomically adds `step` to the node's number (starting from `startValue` when null); emits
  /// the new value. Lazy.
  public func increment(from startValue: Double = 0, by step: Double = 1)
    -> AnyPublisher<DatasyncValue, WebcomError>
  {
    operation { self.wrapped.increment(from: startValue, by: step, queue: $0, then: $1) }
  }

  /// Runs a transaction on the node; emits whether it committed and the final value. Lazy.
  public func transaction(_ function: @escaping DatasyncTransaction.Function)
    -> AnyPublisher<DatasyncTransaction.Result, WebcomError>
  {
    operation { self.wrapped.transaction(function, queue: $0, then: $1) }
  }

  /// Copies the node's value to `destination`; emits once the back end has answered. Lazy.
  public func copy(to destination: DatasyncNode.StreamsWrapper) -> AnyPublisher<Void, WebcomError> {
    operation { self.wrapped.copy(to: destination.wrapped, queue: $0, then: $1) }
  }
}
