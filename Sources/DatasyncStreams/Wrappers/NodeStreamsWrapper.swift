import Datasync
import Foundation
import Streams

extension DatasyncNode {
  /// The Streams API of a node: its events, value and children as publishers, and its
  /// operations as one-shot publishers.
  ///
  /// Obtain it with `node.streams`. It mirrors the node's navigation, returning wrappers. Every
  /// stream makes its Datasync subscription when subscribed and cancels it the moment it is
  /// cancelled; every publisher works with `.values` in a `for try await` loop.
  ///
  /// ```swift
  /// let messages = (manager / "rooms/general/messages")!.streams
  /// for try await event in messages.events(to: .childAddition).values {
  ///   print(event.key, event.value.asString ?? "")
  /// }
  /// ```
  public final class StreamsWrapper: DatasyncStreams.StreamsWrapper, Hashable,
    CustomStringConvertible, Sendable
  {
    /// The wrapped node.
    public let wrapped: DatasyncNode

    /// Wraps `node`.
    public init(_ node: DatasyncNode) {
      wrapped = node
    }

    /// The node's absolute path (`/` for the root).
    public var path: String { wrapped.path }

    /// The node's key (`""` for the root).
    public var key: WebcomKey { wrapped.key }

    /// The parent's wrapper; nil for the root.
    public var parent: StreamsWrapper? { wrapped.parent?.streams }

    /// The parent's wrapper; throws `invalidPath` for the root.
    public var parentThrows: StreamsWrapper {
      get throws { try wrapped.parentThrows.streams }
    }

    /// The wrapper of the node at `path`, relative to this one; nil for an ill-formed path.
    public func relativeNode(for path: String) -> StreamsWrapper? {
      wrapped.relativeNode(for: path)?.streams
    }

    /// The wrapper of the node at `path`, relative to this one; throws `invalidPath`.
    public func relativeNodeThrows(for path: String) throws -> StreamsWrapper {
      try wrapped.relativeNodeThrows(for: path).streams
    }

    /// The wrapper of the node at `path`, relative to `node`.
    public static func / (node: StreamsWrapper, path: String) -> StreamsWrapper? {
      node.relativeNode(for: path)
    }

    /// The wrapper of a new child with a push identifier as its key.
    public func createChild() -> StreamsWrapper {
      wrapped.createChild().streams
    }

    public var description: String { "streams(\(wrapped.path))" }

    public static func == (lhs: StreamsWrapper, rhs: StreamsWrapper) -> Bool {
      lhs.wrapped == rhs.wrapped
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(wrapped)
    }
  }

  /// The node's Streams API.
  public var streams: StreamsWrapper { StreamsWrapper(self) }
}
