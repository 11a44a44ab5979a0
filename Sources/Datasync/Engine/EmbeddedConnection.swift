import Foundation

/// The connection of one client to a ``DatasyncDatabase`` in the same process.
///
/// Requests and messages travel through one serial queue, so the back end sees the client's
/// requests in order and the client receives the back end's messages in order, always
/// asynchronously (acknowledgements arrive after the local events, as over a network).
final class EmbeddedConnection: BackEndConnection, @unchecked Sendable {
  private let database: DatasyncDatabase
  private let queue: DispatchQueue
  /// Protects `receiver`.
  private let lock = NSLock()
  private var receiver: (@Sendable (BackEndMessage) -> Void)?
  /// Touched only on `queue`.
  private var isAttached = false

  init(database: DatasyncDatabase, label: String) {
    self.database = database
    self.queue = DispatchQueue(label: "datasync.connection.\(label)")
  }

  func open(receiver: @escaping @Sendable (BackEndMessage) -> Void) {
    lock.withLock { self.receiver = receiver }
    setConnected(true)
  }

  func send(_ request: ClientRequest) {
    queue.async { [self] in
      guard isAttached else { return }
      database.handle(request, from: ObjectIdentifier(self))
    }
  }

  func setConnected(_ connected: Bool) {
    queue.async { [self] in
      guard connected != isAttached else { return }
      isAttached = connected
      if connected {
        database.attach(ObjectIdentifier(self)) { [weak self] message in
          guard let self else { return }
          self.queue.async { self.receive(message) }
        }
      } else {
        database.detach(ObjectIdentifier(self))
      }
    }
  }

  func close() {
    setConnected(false)
    let released = lock.withLock { () -> (@Sendable (BackEndMessage) -> Void)? in
      defer { receiver = nil }
      return receiver
    }
    _ = released
  }

  private func receive(_ message: BackEndMessage) {
    guard let receiver = lock.withLock({ receiver }) else { return }
    receiver(message)
  }
}
