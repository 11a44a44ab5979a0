import Testing

@testable import Datasync

/// Authentication requests in the client state machine: answered like reads, queued while
/// disconnected to go first on reconnection, failing with `disconnected` when the connection
/// drops after they were sent; the accepted token kept and sent first after each reconnection,
/// and the identity's changes told to the observers.
@Suite struct ClientStateMachineAuthenticationTests {
  @Test func authenticationsAreSentAndAnsweredWithTheIdentity() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["identity alice", "answer 1 auth alice"]),
    ])
    #expect(driver.machine.authentication?.uid == "alice")
    try driver.run([
      (.authenticationChanged(uid: "bob"), ["identity bob"])
    ])
    #expect(driver.machine.authentication?.uid == "bob")
    try driver.run([
      (.signOut, ["send signOut 2"]),
      (.acknowledged(2), ["identity none", "answer 2 auth none"]),
    ])
    #expect(driver.machine.authentication == nil)
  }

  @Test func aRefusedTokenIsAnsweredWithTheErrorAndKeepsTheIdentity() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["identity alice", "answer 1 auth alice"]),
      (.authenticate(token: "forged"), ["send authenticate 2 forged"]),
      (.rejected(2, .permissionDenied), ["answer 2 ! permissionDenied"]),
      // Answers to requests no longer waited for do not change the identity.
      (.authenticated(2, uid: "mallory"), []),
    ])
    #expect(driver.machine.authentication?.uid == "alice")
  }

  @Test func anAuthenticationMadeOfflineGoesFirstOnReconnection() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.subscribe(1, "/a", .valueChange), []),
      (.set("/a", "1"), ["s1 =1*"]),
      (.authenticate(token: "alice-token"), []),
      (
        .connected(),
        [
          "send authenticate 3 alice-token", "send listen /a", "send write 2 set /a 1",
          "state connected",
        ]
      ),
      (.authenticated(3, uid: "alice"), ["identity alice", "answer 3 auth alice"]),
    ])
  }

  @Test func sentAuthenticationsFailWithDisconnectedWhenTheConnectionDrops() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.signOut, ["send signOut 2"]),
      (
        .disconnected, ["answer 1 ! disconnected", "answer 2 ! disconnected", "state disconnected"]
      ),
      (.authenticated(1, uid: "alice"), []),
      // Made while disconnected: it waits for the connection, even across another drop.
      (.authenticate(token: "bob-token"), []),
      (.disconnected, []),
      (.connected(), ["send authenticate 3 bob-token", "state connected"]),
      (.authenticate(token: "carol-token"), ["send authenticate 4 carol-token"]),
      (
        .disconnected, ["answer 3 ! disconnected", "answer 4 ! disconnected", "state disconnected"]
      ),
    ])
    #expect(driver.machine.authentication == nil)
  }

  @Test func disablingTheConnectionFailsTheAuthenticationsSentOrNot() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.disconnected, ["answer 1 ! disconnected", "state disconnected"]),
      (.authenticate(token: "bob-token"), []),
      (.enableConnection(false), ["disconnect", "answer 2 ! disconnected"]),
      (.authenticate(token: "carol-token"), []),
      (.enableConnection(true), ["connect"]),
      (.connected(), ["send authenticate 3 carol-token", "state connected"]),
    ])
  }

  @Test func theAcceptedTokenIsSentFirstAfterEachReconnection() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["identity alice", "answer 1 auth alice"]),
      (.subscribe(1, "/users/alice", .valueChange), ["send listen /users/alice"]),
      // A disconnection is not a change of identity.
      (.disconnected, ["state disconnected"]),
    ])
    #expect(driver.machine.authentication?.uid == "alice")
    try driver.run([
      (.set("/users/alice", "1"), ["s1 =1*"]),
      (.authenticate(token: "bob-token"), []),
      (
        .connected(),
        [
          "send authenticate 5 alice-token", "send authenticate 4 bob-token",
          "send listen /users/alice", "send write 3 set /users/alice 1", "state connected",
        ]
      ),
      (.authenticated(5, uid: "alice"), []),
      (.authenticated(4, uid: "bob"), ["identity bob", "answer 4 auth bob"]),
      (.disconnected, ["state disconnected"]),
      // The kept token is the last one accepted.
      (
        .connected(),
        ["send authenticate 6 bob-token", "send listen /users/alice", "state connected"]
      ),
      (.authenticated(6, uid: "bob"), []),
    ])
    #expect(driver.machine.authentication?.uid == "bob")
  }

  @Test func aTokenRefusedAfterAReconnectionMakesTheClientUnauthenticated() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["identity alice", "answer 1 auth alice"]),
      (.subscribe(1, "/users/alice", .valueChange), ["send listen /users/alice"]),
      (.listenData("/users/alice", "1"), ["s1 =1"]),
      (.disconnected, ["state disconnected"]),
      (
        .connected(),
        ["send authenticate 3 alice-token", "send listen /users/alice", "state connected"]
      ),
      // Revoked while disconnected: the back end refuses it, then the listen it granted.
      (.rejected(3, .permissionDenied), ["identity none"]),
      (.revoked("/users/alice", .permissionDenied), ["revoke s1 ! permissionDenied"]),
      (.disconnected, ["state disconnected"]),
      (.connected(), ["state connected"]),
    ])
    #expect(driver.machine.authentication == nil)
  }

  @Test func aReauthenticationAnsweredWithAnotherIdentityChangesIt() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "shared-token"), ["send authenticate 1 shared-token"]),
      (.authenticated(1, uid: "alice"), ["identity alice", "answer 1 auth alice"]),
      (.disconnected, ["state disconnected"]),
      (.connected(), ["send authenticate 2 shared-token", "state connected"]),
      (.authenticated(2, uid: "bob"), ["identity bob"]),
    ])
  }

  @Test func aReauthenticationLostWithTheConnectionIsSentAgainAndItsLateAnswerIgnored() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["identity alice", "answer 1 auth alice"]),
      (.disconnected, ["state disconnected"]),
      (.connected(), ["send authenticate 2 alice-token", "state connected"]),
      (.disconnected, ["state disconnected"]),
      (.connected(), ["send authenticate 3 alice-token", "state connected"]),
      (.authenticated(2, uid: "mallory"), []),
    ])
    #expect(driver.machine.authentication?.uid == "alice")
  }

  @Test func aSignOutForgetsTheTokenEvenWhenTheConnectionDropsBeforeTheAnswer() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["identity alice", "answer 1 auth alice"]),
      (.signOut, ["send signOut 2"]),
      (.disconnected, ["identity none", "answer 2 ! disconnected", "state disconnected"]),
      (.connected(), ["state connected"]),
    ])
    #expect(driver.machine.authentication == nil)
  }

  @Test func aSignOutMadeOfflineGoesAfterTheKeptToken() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["identity alice", "answer 1 auth alice"]),
      (.disconnected, ["state disconnected"]),
      (.signOut, []),
      (.connected(), ["send authenticate 3 alice-token", "send signOut 2", "state connected"]),
      (.authenticated(3, uid: "alice"), []),
      (.acknowledged(2), ["identity none", "answer 2 auth none"]),
      (.disconnected, ["state disconnected"]),
      (.connected(), ["state connected"]),
    ])
  }

  @Test func disablingTheConnectionFailsAQueuedSignOutAndForgetsTheToken() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["identity alice", "answer 1 auth alice"]),
      (.disconnected, ["state disconnected"]),
      (.signOut, []),
      (.enableConnection(false), ["disconnect", "identity none", "answer 2 ! disconnected"]),
      (.enableConnection(true), ["connect"]),
      (.connected(), ["state connected"]),
    ])
  }

  @Test func aTokenTheBackEndRevokesIsNotSentAgain() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["identity alice", "answer 1 auth alice"]),
      (.authenticationChanged(uid: nil), ["identity none"]),
      (.disconnected, ["state disconnected"]),
      (.connected(), ["state connected"]),
    ])
  }

  @Test func aReadRefusedByTheRulesIsAnsweredWithTheErrorAndNoLongerAwaited() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.read("/secret"), ["send read 1 /secret"]),
      (.rejected(1, .permissionDenied), ["answer 1 ! permissionDenied"]),
      // Disabling finds no read waiting.
      (.enableConnection(false), ["disconnect", "state disconnected"]),
    ])
  }
}
