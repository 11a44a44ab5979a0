import Testing

@testable import Datasync

/// Authentication requests in the client state machine: answered like reads, queued while
/// disconnected to go first on reconnection, failing with `disconnected` when the connection
/// drops after they were sent.
@Suite struct ClientStateMachineAuthenticationTests {
  @Test func authenticationsAreSentAndAnsweredWithTheIdentity() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["answer 1 auth alice"]),
    ])
    #expect(driver.machine.authentication?.uid == "alice")
    try driver.run([
      (.authenticationChanged(uid: "bob"), [])
    ])
    #expect(driver.machine.authentication?.uid == "bob")
    try driver.run([
      (.signOut, ["send signOut 2"]),
      (.acknowledged(2), ["answer 2 auth none"]),
    ])
    #expect(driver.machine.authentication == nil)
  }

  @Test func aRefusedTokenIsAnsweredWithTheErrorAndKeepsTheIdentity() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["answer 1 auth alice"]),
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
      (.authenticated(3, uid: "alice"), ["answer 3 auth alice"]),
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

  @Test func aConnectionDropForgetsTheIdentity() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "alice-token"), ["send authenticate 1 alice-token"]),
      (.authenticated(1, uid: "alice"), ["answer 1 auth alice"]),
      (.disconnected, ["state disconnected"]),
    ])
    #expect(driver.machine.authentication == nil)
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
