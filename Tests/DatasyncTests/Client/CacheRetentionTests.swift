import Testing

@testable import Datasync

/// What the cache keeps once the back end has answered: data that a listen keeps up to date, and
/// nothing else — an acknowledged write or an answered read where nothing listens leaves nothing
/// behind (see ``ClientStateMachineDriver`` for the tables).
@Suite struct CacheRetentionTests {
  private func connected() throws -> ClientStateMachineDriver {
    var driver = ClientStateMachineDriver()
    try driver.run([(.connected(), ["state connected"])])
    return driver
  }

  @Test func anAcknowledgedWriteWhereNothingListensLeavesNothing() throws {
    var driver = try connected()
    try driver.run([
      (.set("/rooms/1/messages/m", #""hi""#), [#"send write 1 set /rooms/1/messages/m "hi""#]),
      (.acknowledged(1, set: ("/rooms/1/messages/m", #""hi""#)), [#"answer 1 = "hi""#]),
    ])
    #expect(try driver.cached("/") == "null")
  }

  @Test func anAnsweredReadWhereNothingListensLeavesNothing() throws {
    var driver = try connected()
    try driver.run([
      (.read("/profile"), ["send read 1 /profile"]),
      (.value(1, #"{"name":"Ada"}"#), [#"answer 1 = {"name":"Ada"}"#]),
    ])
    #expect(try driver.cached("/") == "null")
  }

  @Test func aListenAtAboveOrBelowTheWrittenNodeKeepsIt() throws {
    for listened in ["/rooms/1/messages/m", "/rooms", "/rooms/1/messages/m/text"] {
      var driver = try connected()
      try driver.run([
        (
          .subscribe(1, listened, .value(change: false, acknowledgement: false)),
          [
            "send listen \(listened)"
          ]
        ),
        (
          .set("/rooms/1/messages/m", #"{"text":"hi"}"#),
          [
            #"send write 2 set /rooms/1/messages/m {"text":"hi"}"#
          ]
        ),
        (
          .acknowledged(2, set: ("/rooms/1/messages/m", #"{"text":"hi"}"#)),
          [#"answer 2 = {"text":"hi"}"#]
        ),
      ])
      #expect(try driver.cached("/rooms/1/messages/m/text") == #""hi""#, "\(listened)")
    }
  }

  @Test func dataKeptByAnEndedSubscriptionFollowsLaterWritesThere() throws {
    var driver = try connected()
    try driver.run([
      (
        .subscribe(1, "/profile", .value(change: true, acknowledgement: false)),
        [
          "send listen /profile"
        ]
      ),
      (.listenData("/profile", #"{"name":"Ada"}"#), [#"s1 ={"name":"Ada"}"#]),
      (.unsubscribe(1, .keepData), ["send unlisten /profile"]),
      (.set("/profile/name", #""Grace""#), [#"send write 2 set /profile/name "Grace""#]),
      (.acknowledged(2, set: ("/profile/name", #""Grace""#)), [#"answer 2 = "Grace""#]),
    ])
    #expect(try driver.cached("/profile") == #"{"name":"Grace"}"#)
    // Subscribed again, then ended with forgetData: nothing is kept any more.
    try driver.run([
      (
        .subscribe(3, "/profile", .value(change: true, acknowledgement: false)),
        [
          "send listen /profile"
        ]
      ),
      (.unsubscribe(3, .forgetData), ["send unlisten /profile"]),
      (.set("/profile/name", #""Ada""#), [#"send write 4 set /profile/name "Ada""#]),
      (.acknowledged(4, set: ("/profile/name", #""Ada""#)), [#"answer 4 = "Ada""#]),
    ])
    #expect(try driver.cached("/") == "null")
  }

  @Test func aWriteStillPendingAtTheNodeKeepsItUntilItsOwnAcknowledgement() throws {
    var driver = try connected()
    try driver.run([
      (.set("/counter", "1"), ["send write 1 set /counter 1"]),
      (.set("/counter", "2"), ["send write 2 set /counter 2"]),
      (.acknowledged(1, set: ("/counter", "1")), ["answer 1 = 1"]),
    ])
    #expect(try driver.cached("/counter") == "2")
    try driver.run([(.acknowledged(2, set: ("/counter", "2")), ["answer 2 = 2"])])
    #expect(try driver.cached("/counter") == "null")
  }

  @Test func aRunningTransactionKeepsTheValueItComputesFrom() throws {
    var driver = try connected()
    try driver.run([
      (.beginTransaction("/counter"), []),
      (.set("/counter/total", "5"), ["send write 2 set /counter/total 5"]),
      (.acknowledged(2, set: ("/counter/total", "5")), ["answer 2 = 5"]),
    ])
    #expect(try driver.cached("/counter") == #"{"total":5}"#)
    try driver.run([
      (.endTransaction(1), []),
      (.set("/counter/total", "6"), ["send write 3 set /counter/total 6"]),
      (.acknowledged(3, set: ("/counter/total", "6")), ["answer 3 = 6"]),
    ])
    #expect(try driver.cached("/counter") == "null")
  }
}
