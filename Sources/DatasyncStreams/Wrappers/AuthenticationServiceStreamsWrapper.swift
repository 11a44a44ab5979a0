import Datasync
import Streams

extension AuthenticationService {
  /// The Streams API of an authentication service: its state as a stream.
  ///
  /// ```swift
  /// app.authenticationService.streams.state
  ///   .map { $0.authentication?.uid ?? "signed out" }
  ///   .sink { print($0) }
  ///   .store(in: &cancellables)
  /// ```
  public final class StreamsWrapper: DatasyncStreams.StreamsWrapper, Sendable {
    /// The wrapped service.
    public let wrapped: AuthenticationService

    /// Wraps `service`.
    public init(_ service: AuthenticationService) {
      wrapped = service
    }

    /// The authentication state: the current state first, then each change (never the same
    /// state twice in a row; a disconnection is not a change). It never fails, and finishes only
    /// if cancelled.
    public var state: AnyPublisher<AuthenticationState, Never> {
      AuthenticationStatePublisher(service: wrapped).eraseToAnyPublisher()
    }
  }

  /// The service's Streams API.
  public var streams: StreamsWrapper { StreamsWrapper(self) }
}
