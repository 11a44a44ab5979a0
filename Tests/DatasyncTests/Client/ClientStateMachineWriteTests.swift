import Testing

@testable import Datasync

/// Local writes in the client state machine, as tables of steps in and effects out (see
/// ``ClientStateMachineDriver``): events at once, acknowledgements and their events, reverts on
/// rejection, the back end's data under pending writes.
@Suite struct ClientStateMachineWriteTests {
  /// A connected driver with subscription 1 on the value of `/a` and subscription 2 on its child
  /// events, acknowledgements included, after `/a` = `{"x":1}` arrived.
  private func listeningToA() throws -> ClientStateMachineDriver {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.subscribe(1, "/a", .value(change: true, acknowledgement: true)), ["send listen /a"]),
      (
        .subscribe(
          2, "/a", .child(addition: true, change: true, removal: true, acknowledgement: true)), []
      ),
      (.listenData("/a", #"{"x":1}"#), [#"s1 ={"x":1}"#, "s2 +x"]),
    ])
    return driver
  }

  @Test func aWriteRaisesItsEventsAtOnceThenItsAcknowledgementsAndAnswer() throws {
    var driver = try listeningToA()
    try driver.run([
      (.set("/a/y", "2"), ["s2 +y*", #"s1 ={"x":1,"y":2}*"#, "send write 3 set /a/y 2"]),
      (
        .acknowledged(3, set: ("/a/y", "2")),
        ["s2 ack+y", #"s1 ack={"x":1,"y":2}"#, "answer 3 = 2"]
      ),
    ])
  }

  @Test func acknowledgementsArriveInOrderAndMarkOnlyWhatIsNoLongerPending() throws {
    var driver = try listeningToA()
    try driver.run([
      (.set("/a/y", "2"), ["s2 +y*", #"s1 ={"x":1,"y":2}*"#, "send write 3 set /a/y 2"]),
      (.set("/a/x", "5"), ["s2 ~x*", #"s1 ={"x":5,"y":2}*"#, "send write 4 set /a/x 5"]),
      // y is confirmed while x still waits: the value acknowledgement is not acked yet.
      (
        .acknowledged(3, set: ("/a/y", "2")),
        ["s2 ack+y", #"s1 ack={"x":5,"y":2}*"#, "answer 3 = 2"]
      ),
      (
        .acknowledged(4, set: ("/a/x", "5")),
        ["s2 ack+x", #"s1 ack={"x":5,"y":2}"#, "answer 4 = 5"]
      ),
    ])
  }

  @Test func aRejectedWriteIsRevertedWithItsEventsAndAnsweredWithTheError() throws {
    var driver = try listeningToA()
    try driver.run([
      (.set("/a/x", "9"), ["s2 ~x*", #"s1 ={"x":9}*"#, "send write 3 set /a/x 9"]),
      (.rejected(3, .permissionDenied), ["s2 ~x", #"s1 ={"x":1}"#, "answer 3 ! permissionDenied"]),
      // The back end's current value replaces what the client knew.
      (.set("/a/x", "10"), ["s2 ~x*", #"s1 ={"x":10}*"#, "send write 4 set /a/x 10"]),
      (
        .rejected(4, .permissionDenied, current: "3"),
        ["s2 ~x", #"s1 ={"x":3}"#, "answer 4 ! permissionDenied"]
      ),
    ])
  }

  @Test func aRejectionUnderALaterPendingWriteRevertsOnlyWhatTheLaterOneDoesNotCover() throws {
    var driver = try listeningToA()
    try driver.run([
      (.set("/a/x", "2"), ["s2 ~x*", #"s1 ={"x":2}*"#, "send write 3 set /a/x 2"]),
      (.set("/a", #"{"x":3}"#), ["s2 ~x*", #"s1 ={"x":3}*"#, "send write 4 set /a {\"x\":3}"]),
      (.rejected(3, .permissionDenied), ["answer 3 ! permissionDenied"]),
      (
        .acknowledged(4, set: ("/a", #"{"x":3}"#)),
        ["s2 ack+x", #"s1 ack={"x":3}"#, "answer 4 = {\"x\":3}"]
      ),
    ])
  }

  @Test func anotherClientsChangeUnderAPendingWriteStaysHidden() throws {
    var driver = try listeningToA()
    try driver.run([
      (.set("/a/x", "2"), ["s2 ~x*", #"s1 ={"x":2}*"#, "send write 3 set /a/x 2"]),
      (.changed("/a/x", "7"), []),
      (.changed("/a/z", "8"), ["s2 +z", #"s1 ={"x":2,"z":8}*"#]),
      (
        .acknowledged(3, set: ("/a/x", "2")),
        ["s2 ack+x", #"s1 ack={"x":2,"z":8}"#, "answer 3 = 2"]
      ),
    ])
  }

  @Test func theBackEndsResultReplacesTheLocalEstimateWhenTheyDiffer() throws {
    var driver = try listeningToA()
    try driver.run([
      (
        .increment("/a/x", by: 1), ["s2 ~x*", #"s1 ={"x":2}*"#, "send write 3 increment /a/x +1.0"]
      ),
      // Another client incremented first: the back end announces the resulting value.
      (
        .acknowledged(3, set: ("/a/x", "3")),
        ["s2 ~x", #"s1 ={"x":3}"#, "s2 ack+x", #"s1 ack={"x":3}"#, "answer 3 = 3"]
      ),
    ])
  }

  @Test func anAnswerToARequestNoLongerAwaitedChangesNothing() throws {
    var driver = try listeningToA()
    try driver.run([
      (.acknowledged(42, set: ("/a/x", "5")), ["answer 42 = 5"]),
      (.rejected(43, .permissionDenied), ["answer 43 ! permissionDenied"]),
      (.value(44, "1"), []),
    ])
    #expect(try driver.cached("/a") == #"{"x":1}"#)
  }

  @Test func disconnectionWritesAreSentAndAnsweredWithoutLocalEvents() throws {
    var driver = try listeningToA()
    try driver.run([
      (.writeOnDisconnection("/a/x", "0"), ["send onDisconnection 3 set /a/x 0"]),
      (.acknowledged(3), ["answer 3 = null"]),
      (.cancelDisconnectionWrites("/a"), ["send cancelOnDisconnection 4 /a"]),
      (.acknowledged(4), ["answer 4 = null"]),
    ])
  }
}
