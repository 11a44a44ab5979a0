import Testing

@testable import Datasync

/// The connection in the client state machine, as tables of steps in and effects out (see
/// ``ClientStateMachineDriver``): the outbox while disconnected, resynchronisation on
/// reconnection, reads answered from complete data or by the back end.
@Suite struct ClientStateMachineConnectionTests {
  @Test func writesMadeOfflineQueueAndAreSentInOrderAfterTheRenewedListens() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.subscribe(1, "/a", .valueChange), ["send listen /a"]),
      (.listenData("/a", #"{"x":1}"#), [#"s1 ={"x":1}"#]),
      (.disconnected, ["state disconnected"]),
      (.set("/a/y", "2"), [#"s1 ={"x":1,"y":2}*"#]),
      (.merge("/a", [("x", "null"), ("z/w", "3")]), [#"s1 ={"y":2,"z":{"w":3}}*"#]),
      (.writeOnDisconnection("/p", "true"), []),
      (
        .connected(clockOffset: 5),
        [
          "send listen /a", "send write 2 set /a/y 2", "send write 3 merge /a {x:null,z/w:3}",
          "send onDisconnection 4 set /p true", "state connected",
        ]
      ),
    ])
  }

  @Test func queuedWritesKeepTheirOrderWithTheOtherQueuedRequestsAndTheirServerValues() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.disconnected, ["state disconnected"]),
      (.set("/a/x", "1"), []),
      (.read("/b"), []),
      (.set("/a/t", #"{".sv":"timestamp"}"#), []),
      (.cancelDisconnectionWrites("/p"), []),
      (.merge("/a", [("y", "2")]), []),
      (.set("/a/z", "3"), []),
      (
        .connected(),
        [
          "send write 1 set /a/x 1", "send read 2 /b",
          #"send write 3 set /a/t {".sv":"timestamp"}"#,
          "send cancelOnDisconnection 4 /p", "send write 5 merge /a {y:2}",
          "send write 6 set /a/z 3",
          "state connected",
        ]
      ),
    ])
  }

  @Test func afterAReconnectionTheBackEndsDataResynchronisesTheViews() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (
        .subscribe(1, "/a", .child(addition: true, change: true, removal: true)), ["send listen /a"]
      ),
      (.listenData("/a", #"{"x":1,"y":2}"#), ["s1 +x +y"]),
      (.disconnected, ["state disconnected"]),
      (.set("/a/w", "0"), ["s1 +w*"]),
      (.connected(), ["send listen /a", "send write 2 set /a/w 0", "state connected"]),
      // Meanwhile another client removed y, changed x and added z; the pending w stays. Within
      // a view, removals come first, then additions, then changes.
      (.listenData("/a", #"{"x":5,"z":3}"#), ["s1 -y +z ~x"]),
      (.acknowledged(2, set: ("/a/w", "0")), ["answer 2 = 0"]),
      (.listenData("/a", #"{"w":0,"x":5,"z":3}"#), []),
    ])
  }

  @Test func aDisabledConnectionQueuesUntilEnabledAndTheBackEndConfirms() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.enableConnection(false), ["disconnect", "state disconnected"]),
      (.enableConnection(false), []),
      // The back end's late confirmation does not reconnect a disabled client.
      (.connected(), []),
      (.set("/a", "1"), []),
      (.enableConnection(true), ["connect"]),
      (.connected(), ["send write 1 set /a 1", "state connected"]),
    ])
  }

  @Test func messagesOfADisabledConnectionThatArriveBeforeItsEndAreIgnored() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.authenticate(token: "t"), ["send authenticate 1 t"]),
      (.authenticated(1, uid: "alice"), ["identity alice", "answer 1 auth alice"]),
      (.subscribe(2, "/a", .valueChange), ["send listen /a"]),
      (.listenData("/a", "1"), ["s2 =1"]),
      (.enableConnection(false), ["disconnect", "state disconnected"]),
      // Sent by the back end before it learnt of the disconnection: the session they describe
      // is gone, so they change neither the identity, the cache nor the subscriptions.
      (.authenticationChanged(uid: nil), []),
      (.changed("/a", "2"), []),
      (.listenData("/a", "3"), []),
      (.revoked("/a", .permissionDenied), []),
      (.disconnected, []),
      (.read("/a"), ["answer 3 = 1"]),
      (.enableConnection(true), ["connect"]),
      (.connected(), ["send authenticate 4 t", "send listen /a", "state connected"]),
    ])
  }

  @Test func readsAreAnsweredFromCompleteDataOrByTheBackEnd() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.subscribe(1, "/a", .valueChange), ["send listen /a"]),
      (.listenData("/a", #"{"x":1}"#), [#"s1 ={"x":1}"#]),
      (.read("/a/x"), ["answer 2 = 1"]),
      (.read("/a/none"), ["answer 3 = null"]),
      (.read("/b"), ["send read 4 /b"]),
      (.value(4, #"{"y":2}"#), [#"answer 4 = {"y":2}"#]),
      // A set replaces the whole value: its node is complete without the back end.
      (.set("/c", #"{"z":3}"#), ["send write 5 set /c {\"z\":3}"]),
      (.read("/c/z"), ["answer 6 = 3"]),
      // A pending write below the read node shows through the back end's answer.
      (.set("/d/x", "1"), ["send write 7 set /d/x 1"]),
      (.read("/d"), ["send read 8 /d"]),
      (.value(8, #"{"y":2}"#), [#"answer 8 = {"x":1,"y":2}"#]),
    ])
  }

  @Test func readsWaitingWhenTheConnectionIsDisabledAreAnsweredAtOnce() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.read("/b"), ["send read 1 /b"]),
      (.set("/c", "3"), ["send write 2 set /c 3"]),
      (.read("/c/x"), ["answer 3 = null"]),
      (.disconnected, ["state disconnected"]),
      (.read("/d"), []),
      (
        .enableConnection(false),
        ["disconnect", "answer 1 ! disconnected", "answer 4 ! disconnected"]
      ),
      // The unsent read left the outbox; the back end's late answer is ignored.
      (.value(1, "1"), []),
      (.read("/e"), ["answer 5 ! disconnected"]),
      (.read("/c"), ["answer 6 = 3"]),
      (.enableConnection(true), ["connect"]),
      (.connected(), ["state connected"]),
    ])
  }

  @Test func aReadMadeWhileDisconnectedIsSentOnReconnection() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.read("/b"), []),
      (.connected(), ["send read 1 /b", "state connected"]),
      (.value(1, "2"), ["answer 1 = 2"]),
    ])
  }

  @Test func theClockOffsetEstimatesServerValuesAndSurvivesADisconnection() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(clockOffset: 2.5), ["state connected"]),
      (.disconnected, ["state disconnected"]),
    ])
    #expect(driver.machine.backEndTime(at: driver.now) == driver.now.addingTimeInterval(2.5))
    #expect(driver.machine.state == .disconnected)
  }

  @Test func aBackEndThatCannotBeUsedFailsEveryRequestAtOnceAndAppliesNothing() throws {
    var driver = ClientStateMachineDriver(
      backEndError: WebcomError(.invalidArgument, "the URL ftp://example.com is invalid"))
    try driver.run([
      (.subscribe(1, "/a", .valueChange), ["revoke s1 ! invalidArgument"]),
      (.set("/a", "1"), ["answer 1 ! invalidArgument"]),
      (.merge("/a", [("b", "2")]), ["answer 2 ! invalidArgument"]),
      (.read("/a"), ["answer 3 ! invalidArgument"]),
      (.writeOnDisconnection("/a", "0"), ["answer 4 ! invalidArgument"]),
      (.cancelDisconnectionWrites("/a"), ["answer 5 ! invalidArgument"]),
      (.authenticate(token: "alice-token"), ["answer 6 ! invalidArgument"]),
      (.signOut, ["answer 7 ! invalidArgument"]),
    ])
    #expect(try driver.cached("/a") == "null")
    #expect(driver.machine.state == .disconnected)
  }
}
