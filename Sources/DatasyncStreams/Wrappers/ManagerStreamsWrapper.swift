import Datasync
import Streams

extension DatasyncManager {
  /// The Streams API of a manager: node lookup returning node wrappers, and the connection state
  /// as a stream.
  ///
  /// ```swift
  /// let room = manager.streams / "rooms/general"
  /// manager.streams.state.sink { print("connection: \($0)") }.store(in: &cancellables)
  /// ```
  public final class StreamsWrapper: DatasyncStreams.StreamsWrapper, Sendable {
    /// The wrapped manager.
    public let wrapped: DatasyncManager

    /// Wraps `manager`.
    public init(_ manager: DatasyncManager) {
      wrapped = manager
    }

    /// The wrapper of the node at an absolute path; nil when the path is ill-formed.
    public func node(for path: String) -> DatasyncNode.StreamsWrapper? {
      wrapped.node(for: path)?.streams
    }

    /// The wrapper of the node at an absolute path; throws `invalidPath`.
    public func nodeThrows(for path: String) throws -> DatasyncNode.StreamsWrapper {
      try wrapped.nodeThrows(for: path).streams
    }

    /// The wrapper of the node at an absolute path: `manager.streams / "rooms/general"`.
    public static func / (manager: StreamsWrapper, path: String) -> DatasyncNode.StreamsWrapper? {
      manager.node(for: path)
    }

    /// The service's connection state: the current state first, then each change (never the same
    /// state twice in a row). It never fails, and finishes only if cancelled.
    public var state: AnyPublisher<DatasyncState, Never> {
      DatasyncStatePublisher(manager: wrapped).eraseToAnyPublisher()
    }
  }

  /// The manager's Streams API.
  public var streams: StreamsWrapper { StreamsWrapper(self) }
}
