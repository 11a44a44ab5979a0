/// A type that wraps a Datasync object to give it a Streams-based API.
///
/// `node.streams`, `manager.streams` and `service.streams` return wrappers whose publishers
/// deliver the wrapped object's data as streams.
public protocol StreamsWrapper {
  /// The type of the wrapped object.
  associatedtype Wrapped
  /// The wrapped object.
  var wrapped: Wrapped { get }
}
