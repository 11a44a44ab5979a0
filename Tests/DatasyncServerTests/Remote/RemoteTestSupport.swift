import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// Options for tests against a local server: short timeouts, and a reconnection that waits a
/// few milliseconds (no test waits for a backoff).
let fastRemoteOptions = RemoteOptions(
  requestTimeout: 5, idleTimeout: 5,
  reconnection: RemoteReconnectionPolicy(initialDelay: 0.01, maximumDelay: 0.05))

/// A client of a test server over the remote back end.
struct RemoteClient {
  let application: WebcomApplication
  let manager: DatasyncManager
  let states = Recorder<DatasyncState>()
  private let observation: DatasyncStateObservation

  init(
    _ name: String, server: TestDatabaseServer, namespace: String? = nil,
    options: RemoteOptions = fastRemoteOptions
  ) {
    self.init(
      name, url: URL(string: "http://127.0.0.1:\(server.port)")!, namespace: namespace,
      options: options)
  }

  init(
    _ name: String = "client", url: URL, namespace: String? = nil,
    options: RemoteOptions = fastRemoteOptions
  ) {
    application = WebcomApplication(
      configuration: WebcomConfiguration(
        identifier: name, backEnd: .remote(url: url, namespace: namespace, options: options)))
    manager = application.datasyncService.createManager()
    let states = self.states
    observation = manager.observeState(queue: DispatchQueue(label: "test.states.\(name)")) {
      states.append($0)
    }
  }

  func node(_ path: String) throws -> DatasyncNode {
    try manager.nodeThrows(for: path)
  }

  /// Runs a callback-form operation and waits (bounded) for its callback.
  @discardableResult
  func wait<T: Sendable>(
    timeout: TimeInterval = 10,
    _ start: (DispatchQueue, @escaping @Sendable (WebcomResult<T>) -> Void) -> Void
  ) throws -> T {
    let result = Recorder<WebcomResult<T>>()
    start(DispatchQueue(label: "test.result")) { result.append($0) }
    guard let outcome = result.wait(for: 1, timeout: timeout).first else {
      throw TestClientError(description: "no callback within \(timeout) s")
    }
    return try outcome.get()
  }
}

extension Recorder where Value == DatasyncState {
  /// Waits until the last state is connected (or disconnected); whether it is.
  @discardableResult
  func wait(connected: Bool, timeout: TimeInterval = 10) -> Bool {
    let states = wait(timeout: timeout) { ($0.last.map { $0 != .disconnected }) == connected }
    return states.last.map { $0 != .disconnected } == connected
  }

  /// The number of times the client connected.
  var connections: Int { all.count { $0 != .disconnected } }
}

/// A short description of an event: "+key json", "-key", "~key json", "=json".
func describeRemote(_ event: DatasyncEvent) -> String {
  switch event.eventType {
  case .childAddition: "+\(event.key.value) \(event.value.json)"
  case .childRemoval: "-\(event.key.value)"
  case .childChange: "~\(event.key.value) \(event.value.json)"
  default: "=\(event.value.json)"
  }
}
