import Foundation
import Testing

@testable import Datasync

/// A remote back end configured with a URL it cannot use fails every request at once, naming
/// the URL, instead of waiting for a connection that never comes.
@Suite(.timeLimit(.minutes(1))) struct RemoteConfigurationTests {
  private let events = DispatchQueue(label: "test.remote.configuration")

  private static func client() -> RemoteClient {
    RemoteClient(url: URL(string: "ftp://example.com/db")!)
  }

  private static func expectNamesTheURL(_ error: Error) {
    let error = error as? WebcomError
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains("ftp://example.com/db") == true)
  }

  @Test func writesAndReadsFailAtOnceAndNothingIsAppliedLocally() throws {
    let client = Self.client()
    let node = try client.node("rooms/a")
    let local = Recorder<DatasyncEvent>()
    try node.subscribeThrows(to: .valueChange, queue: events, onEvent: local.append)
    do {
      try client.wait { node.set("hello", queue: $0, then: $1) }
      Issue.record("the write succeeded")
    } catch {
      Self.expectNamesTheURL(error)
    }
    do {
      _ = try client.wait { node.value(queue: $0, then: $1) }
      Issue.record("the read succeeded")
    } catch {
      Self.expectNamesTheURL(error)
    }
    #expect(node.cachedValue.isNull)
    #expect(local.all.isEmpty)
  }

  @Test func subscriptionsAreRevokedWithTheError() throws {
    let client = Self.client()
    let revocations = Recorder<WebcomError>()
    try client.node("rooms").subscribeThrows(
      to: .child(addition: true), queue: events, onEvent: { _ in },
      onCompletion: { completion in
        if case .revoked(let error) = completion { revocations.append(error) }
      })
    let error = try #require(revocations.wait(for: 1).first)
    Self.expectNamesTheURL(error)
  }

  @Test func authenticationFailsWithTheError() throws {
    let client = Self.client()
    do {
      _ = try client.wait {
        client.application.authenticationService.authenticate(
          withToken: "alice-token", queue: $0, then: $1)
      }
      Issue.record("the authentication succeeded")
    } catch {
      Self.expectNamesTheURL(error)
    }
  }
}
