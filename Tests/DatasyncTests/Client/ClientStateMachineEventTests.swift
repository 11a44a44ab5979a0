import Testing

@testable import Datasync

/// The events of the client state machine, as tables of steps in and effects out (see
/// ``ClientStateMachineDriver`` for how effects are written): replays on subscription and on the
/// back end's data, and the order of one change's events across views.
@Suite struct ClientStateMachineEventTests {
  @Test func aSubscriptionWaitsForTheBackEndsDataThenEachSubscriberGetsItsReplay() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.subscribe(1, "/a", .valueChange), ["send listen /a"]),
      // Same path and constraint: the view is shared and the path already listened to.
      (.subscribe(2, "/a", .child(addition: true, change: true)), []),
      (.listenData("/a", #"{"x":1,"y":2}"#), [#"s1 ={"x":1,"y":2}"#, "s2 +x +y"]),
      // The data below a complete listen is complete: the replay comes at once.
      (.subscribe(3, "/a/x", .valueChange), ["send listen /a/x", "s3 =1"]),
      (.subscribe(4, "/a", .valueChange), [#"s4 ={"x":1,"y":2}"#]),
    ])
  }

  @Test func aSubscriptionMadeWhileDisconnectedListensOnceConnected() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.subscribe(1, "/b", .valueChange), []),
      (.subscribe(2, "/a", .valueChange), []),
      (.connected(), ["send listen /a", "send listen /b", "state connected"]),
      (.listenData("/b", "null"), ["s1 =null"]),
    ])
  }

  @Test func aLocalSetCompletesTheViewsAtAndBelowItsNodeBeforeTheBackEndAnswers() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.subscribe(1, "/a/x", .valueChange), []),
      (.set("/a", #"{"x":1}"#), ["s1 =1*"]),
      (.subscribe(3, "/a", .childAddition), ["s3 +x*"]),
      // The listen data under the pending set changes nothing visible.
      (
        .connected(),
        [
          "send listen /a", "send listen /a/x", "send write 2 set /a {\"x\":1}",
          "state connected",
        ]
      ),
      (.listenData("/a", #"{"x":7}"#), []),
      (.acknowledged(2, set: ("/a", #"{"x":1}"#)), ["answer 2 = {\"x\":1}"]),
    ])
  }

  @Test func everyChildEventOfEveryViewComesBeforeAnyValueEventDeeperViewsFirst() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.subscribe(1, "/a", .valueChange), ["send listen /a"]),
      (.subscribe(2, "/a", .child(addition: true, change: true)), []),
      (.subscribe(3, "/a/b", .valueChange), ["send listen /a/b"]),
      (.subscribe(4, "/a/b", .childAddition), []),
      (
        .listenData("/a", #"{"b":{"z":0}}"#),
        [#"s1 ={"b":{"z":0}}"#, "s2 +b", #"s3 ={"z":0}"#, "s4 +z"]
      ),
      (.listenData("/a/b", #"{"z":0}"#), []),
      (
        .set("/a/b/c", "1"),
        [
          "s4 +c*", "s2 ~b*", #"s3 ={"c":1,"z":0}*"#, #"s1 ={"b":{"c":1,"z":0}}*"#,
          "send write 5 set /a/b/c 1",
        ]
      ),
      // Another client's write: the same order, and acknowledged data.
      (
        .changed("/a/d", "2"),
        ["s2 +d", #"s1 ={"b":{"c":1,"z":0},"d":2}*"#]
      ),
    ])
  }

  @Test func aWriteAnnouncedWithTheBackEndsSharedValueRaisesTheEventsOfWhatItChanged() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (
        .subscribe(1, "/a", .child(addition: true, change: true, removal: true)), ["send listen /a"]
      ),
      (.subscribe(2, "/a", .valueChange), []),
      (.listenData("/a", #"{"x":1}"#), ["s1 +x", #"s2 ={"x":1}"#]),
      (
        .changedSharing("/a/y", "2", listen: "/a", #"{"x":1,"y":2}"#),
        ["s1 +y", #"s2 ={"x":1,"y":2}"#]
      ),
      // The same value again changes nothing: no event.
      (.changedSharing("/a/y", "2", listen: "/a", #"{"x":1,"y":2}"#), []),
      (
        .changedSharing("/a/x", "3", listen: "/a", #"{"x":3,"y":2}"#),
        ["s1 ~x", #"s2 ={"x":3,"y":2}"#]
      ),
      (.changedSharing("/a/x", "null", listen: "/a", #"{"y":2}"#), ["s1 -x", #"s2 ={"y":2}"#]),
      // Removing what is not there changes nothing.
      (.changedSharing("/a/x", "null", listen: "/a", #"{"y":2}"#), []),
      // Under a pending local write, the local value stays visible.
      (.set("/a/y", "5"), ["s1 ~y*", #"s2 ={"y":5}*"#, "send write 3 set /a/y 5"]),
      (.changedSharing("/a/y", "6", listen: "/a", #"{"y":6}"#), []),
      (
        .changedSharing("/a/z", "7", listen: "/a", #"{"y":6,"z":7}"#),
        ["s1 +z", #"s2 ={"y":5,"z":7}*"#]
      ),
    ])
  }

  @Test func aWindowShowsOnlyItsChildrenAndTheirChanges() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (
        .subscribe(1, "/l", .child(addition: true, removal: true), .first(limit: 2)),
        ["send listen /l"]
      ),
      (.listenData("/l", #"{"a":1,"b":2,"c":3}"#), ["s1 +a +b"]),
      // Removing a shown child brings the next one into the window.
      (.set("/l/a", "null"), ["s1 -a* +c", "send write 2 set /l/a null"]),
      // A change outside the window raises nothing.
      (.changed("/l/d", "4"), []),
    ])
  }

  @Test func anUnsubscribedViewRaisesNothingMoreAndItsPolicyDecidesTheData() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.subscribe(1, "/a", .valueChange), ["send listen /a"]),
      (.subscribe(2, "/b", .valueChange), ["send listen /b"]),
      (.subscribe(3, "/c", .valueChange), ["send listen /c"]),
      (.listenData("/a", "1"), ["s1 =1"]),
      (.listenData("/b", "2"), ["s2 =2"]),
      (.listenData("/c", "3"), ["s3 =3"]),
      (.unsubscribe(1, .forgetData), ["send unlisten /a"]),
      (.unsubscribe(2, .keepData), ["send unlisten /b"]),
      (.unsubscribe(3, .keepUpdatingData), []),
      (.changed("/c", "4"), []),
    ])
    #expect(try driver.cached("/a") == "null")
    #expect(try driver.cached("/b") == "2")
    #expect(try driver.cached("/c") == "4")
  }

  @Test func anImplicitEndKeepsUpdatingUnderItsPolicyAndAnExplicitOneForgets() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.subscribe(1, "/a", .valueChange), ["send listen /a"]),
      (.subscribe(2, "/b", .valueChange), ["send listen /b"]),
      (.listenData("/a", "1"), ["s1 =1"]),
      (.listenData("/b", "2"), ["s2 =2"]),
      (.unsubscribe(1, .keepUpdatingDataWhenImplicit, explicitly: false), []),
      (.unsubscribe(2, .keepUpdatingDataWhenImplicit, explicitly: true), ["send unlisten /b"]),
    ])
    #expect(try driver.cached("/a") == "1")
    #expect(try driver.cached("/b") == "null")
  }

  @Test func aRevokedPathEndsItsSubscriptionsAndDropsItsData() throws {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.subscribe(1, "/a", .valueChange), ["send listen /a"]),
      (.subscribe(2, "/a/b", .valueChange), ["send listen /a/b"]),
      (.subscribe(3, "/c", .valueChange), ["send listen /c"]),
      (.listenData("/a", #"{"b":1}"#), [#"s1 ={"b":1}"#, "s2 =1"]),
      (.revoked("/a", .permissionDenied), ["revoke s1 s2 ! permissionDenied"]),
      (.changed("/a/b", "2"), []),
      (.revoked("/a", .permissionDenied), []),
    ])
    #expect(try driver.cached("/a") == "null")
  }
}
