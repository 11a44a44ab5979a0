import Datasync
import Foundation

/// `datasync watch <url>/<path>`: follows a location through the remote back end and prints
/// one line per event until SIGINT or SIGTERM — `added|changed|removed <key> <json>` for its
/// children, `value <key> <json>` for the location itself — and on the standard error when the
/// connection is lost and when it is back.
struct WatchCommand {
  let options: RemoteCommandOptions

  /// Runs until a signal (0) or until the server refuses the token or the listen (1).
  func run() async throws(UsageError) -> Int32 {
    let application = WebcomApplication(
      configuration: WebcomConfiguration(
        identifier: "datasync-watch",
        backEnd: .remote(url: options.database, namespace: options.namespace)))
    let manager = application.datasyncService.createManager()
    let path = options.path.removingPercentEncoding ?? options.path
    let node: DatasyncNode
    do {
      node = try manager.nodeThrows(for: path)
    } catch {
      let reason = (error as? WebcomError)?.message ?? "\(error)"
      throw UsageError(description: "'\(options.path)' is not a valid path: \(reason)")
    }
    let printing = DispatchQueue(label: "datasync.watch")
    let connection = ConnectionReport()
    let observation = manager.observeState(queue: printing) { connection.report($0) }
    if let token = options.token {
      do {
        try await application.authenticationService.authenticate(withToken: token)
      } catch {
        printError((error as? WebcomError)?.message ?? "\(error)")
        return 1
      }
    }
    let ended = AsyncStream<Int32>.makeStream()
    let signals = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { ended.continuation.yield(0) }
      source.resume()
      return source
    }
    let name = node.key.value.isEmpty ? "/" : node.key.value
    node.subscribe(
      to: .child(addition: true, change: true, removal: true), queue: printing,
      onEvent: { Self.print($0) },
      onCompletion: { completion in
        if let error = completion.error {
          printError(error.message)
          ended.continuation.yield(1)
        }
      })
    node.subscribe(
      to: .valueChange, queue: printing,
      onEvent: { event in Self.write("value \(name) \(event.value.json)") })
    var status: Int32 = 0
    for await first in ended.stream {
      status = first
      break
    }
    for source in signals { source.cancel() }
    observation.cancel()
    manager.unsubscribeFromAll()
    return status
  }

  private static func print(_ event: DatasyncEvent) {
    let kind: String
    switch event.eventType {
    case .childAddition: kind = "added"
    case .childChange: kind = "changed"
    case .childRemoval: kind = "removed"
    default: kind = "value"
    }
    write("\(kind) \(event.key.value) \(event.value.json)")
  }

  /// Writes a line on the standard output at once (it is often a pipe).
  private static func write(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}

/// Tells the standard error when the connection is lost and when it is back.
private final class ConnectionReport: @unchecked Sendable {
  /// Protects `hasConnected` and `isConnected`.
  private let lock = NSLock()
  private var hasConnected = false
  private var isConnected = false

  func report(_ state: DatasyncState) {
    let connected = state != .disconnected
    let line: String? = lock.withLock {
      defer {
        isConnected = connected
        if connected { hasConnected = true }
      }
      guard connected != isConnected, hasConnected else { return nil }
      return connected ? "datasync: reconnected" : "datasync: connection lost, reconnecting"
    }
    if let line { FileHandle.standardError.write(Data((line + "\n").utf8)) }
  }
}
