import Foundation
import Testing

@testable import Datasync

/// Records the authentication states an observation delivers.
private final class AuthenticationStateRecorder: @unchecked Sendable {
  /// Protects `states`.
  private let condition = NSCondition()
  private var states: [AuthenticationState] = []

  func record(_ state: AuthenticationState) {
    condition.withLock {
      states.append(state)
      condition.broadcast()
    }
  }

  var recorded: [AuthenticationState] { condition.withLock { states } }

  /// Waits (at most `timeout` seconds) until `count` states are recorded.
  @discardableResult
  func wait(forCount count: Int, timeout: TimeInterval = 10) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while states.count < count {
      if !condition.wait(until: deadline) { return states.count >= count }
    }
    return true
  }
}

/// The application's authentication service on the chat fixture's rules: both forms of its
/// requests, its state and observations, and the authentication across reconnections and
/// revocations.
@Suite(.timeLimit(.minutes(1))) struct AuthenticationServiceTests {
  private let queue = makeTestQueue("authentication")

  private func makeApp(_ database: DatasyncDatabase, _ name: String = "app") -> WebcomApplication {
    makeApplication(name, database: database)
  }

  /// Subscribes to a node's value, recording on the suite's queue.
  private func watch(_ node: DatasyncNode) -> EventRecorder {
    let recorder = EventRecorder()
    node.subscribe(
      to: .valueChange, queue: queue, onEvent: recorder.record, onCompletion: recorder.complete)
    return recorder
  }

  /// Expects the subscription to end (bounded wait) as revoked with `permissionDenied`.
  private func expectRevoked(
    _ recorder: EventRecorder, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(recorder.waitForCompletions(1), sourceLocation: sourceLocation)
    guard case .revoked(let error)? = recorder.recordedCompletions.first else {
      Issue.record("not revoked: \(recorder.recordedCompletions)", sourceLocation: sourceLocation)
      return
    }
    #expect(error.code == .permissionDenied, sourceLocation: sourceLocation)
  }

  @Test func authenticateAndSignOutWithCallbacks() throws {
    let app = makeApp(try AccessFixture.database())
    let auth = app.authenticationService
    #expect(auth.state == .unauthenticated)
    let identity = try waitForResult {
      auth.authenticate(withToken: "alice-token", queue: $0, then: $1)
    }
    #expect(identity == AccessFixture.alice)
    #expect(auth.state == .authenticated(AccessFixture.alice))
    #expect(auth.state.authentication?.uid == "alice")
    try waitForResult { auth.signOut(queue: $0, then: $1) }
    #expect(auth.state == .unauthenticated)
    #expect(auth.state.authentication == nil)
  }

  @Test func authenticateAndSignOutAsync() async throws {
    let app = makeApp(try AccessFixture.database())
    let auth = app.authenticationService
    #expect(try await auth.authenticate(withToken: "bob-token") == AccessFixture.bob)
    #expect(auth.state == .authenticated(AccessFixture.bob))
    // Writes made after the authentication are checked as the identity.
    let name = try app.datasyncService.createManager().nodeThrows(for: "users/bob/name")
    try await name.set("Robert")
    try await auth.signOut()
    #expect(auth.state == .unauthenticated)
    await #expect(throws: WebcomError.self) { try await name.set("Bobby") }
  }

  @Test func anUnknownTokenFailsWithPermissionDeniedAndChangesNothing() async throws {
    let app = makeApp(try AccessFixture.database())
    let auth = app.authenticationService
    do {
      try await auth.authenticate(withToken: "forged-token")
      Issue.record("an unknown token should be refused")
    } catch let error as WebcomError {
      #expect(error.code == .permissionDenied)
    }
    #expect(auth.state == .unauthenticated)
    try await auth.authenticate(withToken: "alice-token")
    let refused = try? waitForResult {
      auth.authenticate(withToken: "forged-token", queue: $0, then: $1)
    }
    #expect(refused == nil)
    #expect(auth.state == .authenticated(AccessFixture.alice))
  }

  @Test func anObservationGetsTheCurrentStateThenEachChangeOnce() throws {
    let app = makeApp(try AccessFixture.database())
    let auth = app.authenticationService
    try waitForResult { auth.authenticate(withToken: "alice-token", queue: $0, then: $1) }
    let recorder = AuthenticationStateRecorder()
    let observation = auth.observeState(queue: queue, onChange: recorder.record)
    #expect(recorder.wait(forCount: 1))
    // The same identity again is not a change; a disconnection is not one either.
    try waitForResult { auth.authenticate(withToken: "alice-token", queue: $0, then: $1) }
    app.datasyncService.isConnectionEnabled = false
    app.datasyncService.isConnectionEnabled = true
    try waitForResult { auth.authenticate(withToken: "bob-token", queue: $0, then: $1) }
    try waitForResult { auth.signOut(queue: $0, then: $1) }
    #expect(recorder.wait(forCount: 3))
    queue.sync {}
    #expect(
      recorder.recorded == [
        .authenticated(AccessFixture.alice), .authenticated(AccessFixture.bob), .unauthenticated,
      ])
    observation.cancel()
    try waitForResult { auth.authenticate(withToken: "alice-token", queue: $0, then: $1) }
    queue.sync {}
    #expect(recorder.recorded.count == 3)
  }

  @Test func observersAreToldBeforeTheAuthenticationsCallbackRuns() throws {
    let app = makeApp(try AccessFixture.database())
    let auth = app.authenticationService
    let recorder = AuthenticationStateRecorder()
    let observation = auth.observeState(queue: queue, onChange: recorder.record)
    defer { observation.cancel() }
    #expect(recorder.wait(forCount: 1))
    let seenByCallback = Shared<[AuthenticationState]>([])
    let answered = DispatchSemaphore(value: 0)
    auth.authenticate(withToken: "alice-token", queue: queue) { _ in
      seenByCallback.update { $0 = recorder.recorded }
      answered.signal()
    }
    #expect(answered.wait(timeout: .now() + 10) == .success)
    #expect(seenByCallback.current == [.unauthenticated, .authenticated(AccessFixture.alice)])
  }

  @Test func aListenDeniedBeforeAuthenticationSucceedsAfter() throws {
    let app = makeApp(try AccessFixture.database())
    let record = try app.datasyncService.createManager().nodeThrows(for: "users/alice")
    expectRevoked(watch(record))
    try waitForResult {
      app.authenticationService.authenticate(withToken: "alice-token", queue: $0, then: $1)
    }
    let granted = watch(record)
    #expect(granted.wait(forCount: 1))
    #expect(granted.recorded.first?.value.asDictionary()?["name"]?.asString == "Alice")
    #expect(granted.recordedCompletions.isEmpty)
  }

  @Test func theTokenIsSentAgainWhenTheConnectionIsEnabledAgain() throws {
    let database = try AccessFixture.database()
    let app = makeApp(database)
    let service = app.datasyncService
    let manager = service.createManager()
    try waitForResult {
      app.authenticationService.authenticate(withToken: "alice-token", queue: $0, then: $1)
    }
    let record = watch(try manager.nodeThrows(for: "users/alice"))
    #expect(record.wait(forCount: 1))
    service.isConnectionEnabled = false
    #expect(app.authenticationService.state == .authenticated(AccessFixture.alice))
    // A listen and a write made offline: renewed and sent after the token on reconnection.
    let score = try manager.nodeThrows(for: "users/alice/score")
    let written = Shared<WebcomResult<Void>?>(nil)
    let answered = DispatchSemaphore(value: 0)
    score.set(42, queue: queue) { result in
      written.update { $0 = result }
      answered.signal()
    }
    let offline = watch(try manager.nodeThrows(for: "users/alice/name"))
    service.isConnectionEnabled = true
    #expect(record.wait { $0.last?.value.asDictionary()?["score"]?.asInt == 42 })
    // The event above is the local estimate; the back end has the value once it answered.
    #expect(answered.wait(timeout: .now() + 20) == .success)
    let other = makeApp(database, "observer")
    try waitForResult {
      other.authenticationService.authenticate(withToken: "admin-token", queue: $0, then: $1)
    }
    let storedScore = try other.datasyncService.createManager().nodeThrows(
      for: "users/alice/score")
    let stored = try waitForResult { storedScore.value(queue: $0, then: $1) }
    #expect(stored.asInt == 42)
    queue.sync {}
    #expect(written.current.map { (try? $0.get()) != nil } == true)
    #expect(offline.recorded.last?.value.asString == "Alice")
    #expect(record.recordedCompletions.isEmpty && offline.recordedCompletions.isEmpty)
    #expect(app.authenticationService.state == .authenticated(AccessFixture.alice))
  }

  @Test func aTokenRevokedWhileListeningEndsTheIdentityAndTheListen() throws {
    let database = try AccessFixture.database()
    let app = makeApp(database)
    let auth = app.authenticationService
    try waitForResult { auth.authenticate(withToken: "alice-token", queue: $0, then: $1) }
    let recorder = AuthenticationStateRecorder()
    let observation = auth.observeState(queue: queue, onChange: recorder.record)
    defer { observation.cancel() }
    // The node keeps its manager, and so the subscription, alive.
    let node = try app.datasyncService.createManager().nodeThrows(for: "users/alice")
    let record = watch(node)
    #expect(record.wait(forCount: 1))
    database.setAuthentication(nil, forToken: "alice-token")
    expectRevoked(record)
    withExtendedLifetime(node) {}
    #expect(recorder.wait(forCount: 2))
    #expect(recorder.recorded == [.authenticated(AccessFixture.alice), .unauthenticated])
    #expect(auth.state == .unauthenticated)
  }

  @Test func aTokenRevokedWhileDisconnectedIsRefusedOnReconnection() throws {
    let database = try AccessFixture.database()
    let app = makeApp(database)
    let auth = app.authenticationService
    try waitForResult { auth.authenticate(withToken: "alice-token", queue: $0, then: $1) }
    let manager = app.datasyncService.createManager()
    let record = watch(try manager.nodeThrows(for: "users/alice"))
    let document = watch(try manager.nodeThrows(for: "public/doc"))
    #expect(record.wait(forCount: 1) && document.wait(forCount: 1))
    app.datasyncService.isConnectionEnabled = false
    database.setAuthentication(nil, forToken: "alice-token")
    #expect(auth.state == .authenticated(AccessFixture.alice))
    let recorder = AuthenticationStateRecorder()
    let observation = auth.observeState(queue: queue, onChange: recorder.record)
    defer { observation.cancel() }
    app.datasyncService.isConnectionEnabled = true
    expectRevoked(record)
    #expect(recorder.wait(forCount: 2))
    #expect(recorder.recorded == [.authenticated(AccessFixture.alice), .unauthenticated])
    // What everyone may read stays.
    let barrier = try manager.nodeThrows(for: "public/doc")
    _ = try waitForResult { barrier.value(queue: $0, then: $1) }
    queue.sync {}
    #expect(document.recordedCompletions.isEmpty)
  }

  @Test func concurrentAuthenticationsAndSignOutsEndInAConsistentState() throws {
    let app = makeApp(try AccessFixture.database())
    let auth = app.authenticationService
    let recorder = AuthenticationStateRecorder()
    let observation = auth.observeState(queue: queue, onChange: recorder.record)
    defer { observation.cancel() }
    let answers = CallbackCounter()
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      for round in 0..<25 {
        switch (worker + round) % 3 {
        case 0: auth.authenticate(withToken: "alice-token", queue: queue, then: answers.record)
        case 1: auth.authenticate(withToken: "bob-token", queue: queue, then: answers.record)
        default: auth.signOut(queue: queue, then: answers.record)
        }
        _ = auth.state
      }
    }
    #expect(answers.wait(for: 200))
    #expect(answers.failed.isEmpty)
    try waitForResult { auth.signOut(queue: $0, then: $1) }
    queue.sync {}
    let states = recorder.recorded
    #expect(states.last == .unauthenticated)
    #expect(zip(states, states.dropFirst()).allSatisfy { $0 != $1 })
  }
}
