import Dispatch

/// A hosted client that follows one location, as a streaming read of the REST protocol does:
/// the value first, then every change, as ``HostedEvent``s.
///
/// The listener is a client of the back end with its own credential. It handles the back end's
/// messages in order on its own serial queue (never under the back end's lock), and turns them
/// into events whose paths are relative to its location:
/// - the value when the listen starts: `onStart` gets the `put` of the whole value at `/` (or
///   of its first level, ``JSONValue/shallow``, for a listener that starts shallow: a client
///   that pages through a large location's children follows its changes without downloading
///   it whole);
/// - a change: `put` (a value set at a path) or `patch` (a merge's entries below a path);
/// - read access lost (the rules changed): `cancel`, then the listener ends;
/// - its token revoked: `auth_revoked`, then the listener ends.
///
/// A listen refused from the start (an unknown token, the rules) gives `onStart` the refusal and
/// sends nothing. ``close()`` disconnects it from the back end (also after it ended).
package final class HostedListener: Sendable {
  private enum Phase {
    case starting
    case listening
    case ended
  }

  /// What the listener reports.
  private struct Callbacks: Sendable {
    let onStart: @Sendable (Result<HostedEvent, HostedRefusal>) -> Void
    let send: @Sendable (HostedEvent) -> Void
    let onEnd: @Sendable () -> Void
  }

  private let database: DatasyncDatabase
  private let path: DatasyncPath
  private let token: String?
  private let startsShallow: Bool
  private let queue: DispatchQueue
  private let callbacks: Callbacks
  /// Touched only on `queue` (the mutex makes that visible to the compiler).
  private let phase = LockedValue(Phase.starting)

  /// Creates a listener; ``start()`` connects it.
  ///
  /// - Parameters:
  ///   - database: The back end.
  ///   - path: The location followed.
  ///   - token: The credential, nil for an unauthenticated client.
  ///   - startsShallow: Whether the first event carries the first level of the value only
  ///     (later events carry the changes as written).
  ///   - onStart: Called once, with the first event (the whole value) or the refusal.
  ///   - send: Called with each later event, in order, one at a time.
  ///   - onEnd: Called once if the back end ends the listen after it started (after the
  ///     `cancel` or `auth_revoked` event).
  package init(
    database: DatasyncDatabase, path: DatasyncPath, token: String?, startsShallow: Bool = false,
    onStart: @escaping @Sendable (Result<HostedEvent, HostedRefusal>) -> Void,
    send: @escaping @Sendable (HostedEvent) -> Void,
    onEnd: @escaping @Sendable () -> Void
  ) {
    self.database = database
    self.path = path
    self.token = token
    self.startsShallow = startsShallow
    queue = DispatchQueue(label: "datasync.hosted-listener", target: .global())
    callbacks = Callbacks(onStart: onStart, send: send, onEnd: onEnd)
  }

  private var identifier: ObjectIdentifier { ObjectIdentifier(self) }

  /// Connects to the back end, authenticates and starts the listen (once authenticated).
  package func start() {
    queue.async { [self] in
      database.attach(identifier) { [weak self] message in
        guard let self else { return }
        self.queue.async { self.receive(message) }
      }
      if let token {
        database.handle(
          .authenticate(DatasyncDatabase.authenticationRequest, token: token), from: identifier)
      } else {
        database.handle(.listen(path), from: identifier)
      }
    }
  }

  /// Disconnects from the back end; nothing is sent afterwards.
  package func close() {
    queue.async { [self] in
      phase.withLock { $0 = .ended }
      database.detach(identifier)
    }
  }

  /// Handles one message of the back end (on `queue`).
  private func receive(_ message: BackEndMessage) {
    let current = phase.withLock { $0 }
    switch (current, message) {
    case (.ended, _):
      return
    case (.starting, .authenticated):
      database.handle(.listen(path), from: identifier)
    case (.starting, .rejected(_, let error, _)):
      finish(start: .failure(HostedRefusal(error, isAuthentication: true)))
    case (.starting, .listenData(_, let value)):
      phase.withLock { $0 = .listening }
      callbacks.onStart(.success(.put(path: "/", data: startsShallow ? value.shallow : value)))
    case (.starting, .revoked(_, let error)):
      finish(start: .failure(HostedRefusal(error)))
    case (.listening, .changed(let write)), (.listening, .changedSharing(let write, _, _, _)):
      callbacks.send(event(for: write))
    case (.listening, .revoked(_, let error)):
      end(with: .cancel(error))
    case (.listening, .authenticationChanged(nil)):
      end(with: .authRevoked)
    default:
      return
    }
  }

  /// The event telling a change at or below the location (the back end announces increments
  /// and compare-and-sets as the sets they resulted in).
  private func event(for write: WriteOperation) -> HostedEvent {
    let relative = DatasyncPath(validatedKeys: Array(write.path.relative(to: path))).string
    switch write {
    case .merge(_, let entries): return .patch(path: relative, entries: entries)
    case .set(_, let value), .compareAndSet(_, _, let value):
      return .put(path: relative, data: value)
    case .increment: return .put(path: relative, data: database.value(at: write.path))
    }
  }

  /// Ends a listen that never started.
  private func finish(start result: Result<HostedEvent, HostedRefusal>) {
    phase.withLock { $0 = .ended }
    database.detach(identifier)
    callbacks.onStart(result)
  }

  /// Ends a listen the back end stopped, after a last event.
  private func end(with last: HostedEvent) {
    phase.withLock { $0 = .ended }
    database.detach(identifier)
    callbacks.send(last)
    callbacks.onEnd()
  }
}
