import Datasync
import Streams

extension DatasyncService {
  /// The Streams API of a service: its connection state as a stream.
  ///
  /// ```swift
  /// app.datasyncService.streams.state
  ///   .map { $0 == .disconnected ? "offline" : "online" }
  ///   .sink { print($0) }
  ///   .store(in: &cancellables)
  /// ```
  public final class StreamsWrapper: DatasyncStreams.StreamsWrapper, Sendable {
    /// The wrapped service.
    public let wrapped: DatasyncService

    /// Wraps `service`.
    public init(_ service: DatasyncService) {
      wrapped = service
    }

    /// The connection state: the current state first, then each change (never the same state
    /// twice in a row). The publisher observes through a manager made for it, kept for as long
    /// as a subscriber is subscribed.
    public var state: AnyPublisher<DatasyncState, Never> {
      DatasyncStatePublisher(manager: wrapped.createManager()).eraseToAnyPublisher()
    }
  }

  /// The service's Streams API.
  public var streams: StreamsWrapper { StreamsWrapper(self) }
}
