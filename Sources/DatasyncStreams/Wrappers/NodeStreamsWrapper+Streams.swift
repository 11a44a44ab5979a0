import Datasync
import Foundation
import Streams

extension DatasyncNode.StreamsWrapper {
  /// The node's events of `eventType` as a stream.
  ///
  /// Each subscriber gets its own Datasync subscription, made when it subscribes: it first
  /// replays the current data (one addition per existing child, or the current value), then
  /// delivers live events. Cancelling cancels the Datasync subscription at once; nothing arrives
  /// after. A revocation by the back end fails the stream with its `WebcomError`. Events that
  /// arrive while the subscriber has no demand are kept in order, without limit, and delivered on
  /// demand: no event is ever dropped.
  ///
  /// - Parameters:
  ///   - eventType: The events wanted, for example `.childAddition` or `.valueChange`.
  ///   - childrenConstraint: The window of children (`.all` by default).
  /// - Returns: A stream that fails with the error of `DatasyncNode.subscribeThrows` (code
  ///   `invalidArgument`) when `eventType` asks for no event or the constraint has a limit below
  ///   1.
  public func events(
    to eventType: DatasyncEventType, childrenConstraint: DatasyncChildrenConstraint = .all
  ) -> AnyPublisher<DatasyncEvent, WebcomError> {
    DatasyncEventPublisher(
      node: wrapped, eventType: eventType, childrenConstraint: childrenConstraint
    ) { $0 }
    .eraseToAnyPublisher()
  }

  /// The node's value: the current value first, then one element per change.
  ///
  /// When the subscriber's queue is behind (its subscriber is slow), the changes that waited for
  /// it come as one element, the latest value: the backlog of a slow subscriber is bounded by the
  /// data, not by the number of writes. Use ``events(to:childrenConstraint:)`` with
  /// `.valueChange` to get every change.
  public func valueChanges() -> AnyPublisher<DatasyncValue, WebcomError> {
    DatasyncEventPublisher(
      node: wrapped, eventType: .valueChange, childrenConstraint: .all, coalesces: true
    ) {
      $0.value
    }
    .eraseToAnyPublisher()
  }

  /// The node's value decoded as `type` with the application's decoder: the current value first,
  /// then one element per change.
  ///
  /// As `decodedValueSubscribe` does, a value that cannot be decoded (including null, unless
  /// `type` is optional) is skipped; use ``valueChanges()`` to see every value. Changes that
  /// waited for a slow subscriber come as one, the latest value (skipped when it cannot be
  /// decoded), as ``valueChanges()`` does.
  public func valueChanges<T: Decodable>(as type: T.Type = T.self) -> AnyPublisher<T, WebcomError> {
    DatasyncEventPublisher(
      node: wrapped, eventType: .valueChange, childrenConstraint: .all, coalesces: true
    ) {
      $0.value.decoded(as: type)
    }
    .eraseToAnyPublisher()
  }

  /// The node's children, decoded as `type`, as one ordered collection per change.
  ///
  /// The first element is emitted once the initial load is complete — never a partial list — and
  /// then one element per write that changed the children, carrying its
  /// ``DatasyncChildren/changes`` (inserted, removed and updated positions) so a list can animate.
  /// When the subscriber's queue is behind (its subscriber is slow), the writes that waited for it
  /// come as one element whose changes cover them all (a child added then removed meanwhile does
  /// not appear): the backlog of a slow subscriber is bounded by the data, not by the number of
  /// writes.
  /// Children are in key order and a key appears at most once, whatever the order of events or of
  /// re-subscriptions. Children whose value cannot be decoded are left out and counted in
  /// ``DatasyncChildren/undecodableCount``, as `assignChildren` leaves them out.
  ///
  /// With a `childrenConstraint`, the collection is the window (for example the last 50
  /// messages): each element reflects the window after one write, whichever other subscriptions
  /// watch the node. A limit below 1 fails the stream with `invalidArgument`.
  ///
  /// ```swift
  /// messages.children(as: Message.self)
  ///   .sink(receiveCompletion: { _ in }, receiveValue: { feed in
  ///     print("\(feed.count) messages, changes: \(feed.changes)")
  ///   })
  ///   .store(in: &cancellables)
  /// ```
  @inlinable
  public func children<T: Decodable>(
    as type: T.Type = T.self, childrenConstraint: DatasyncChildrenConstraint = .all
  ) -> AnyPublisher<DatasyncChildren<T>, WebcomError> {
    DatasyncChildrenPublisher(node: wrapped, childrenConstraint: childrenConstraint) {
      $0.decoded(as: type)
    }
    .eraseToAnyPublisher()
  }

  /// The node's children as raw values, as one ordered collection per change (see
  /// ``children(as:childrenConstraint:)``).
  public func children(childrenConstraint: DatasyncChildrenConstraint = .all)
    -> AnyPublisher<DatasyncChildren<DatasyncValue>, WebcomError>
  {
    DatasyncChildrenPublisher(node: wrapped, childrenConstraint: childrenConstraint) { $0 }
      .eraseToAnyPublisher()
  }
}
