import Testing

@testable import Datasync

/// The views' count of acknowledgement subscribers, which lets a write skip looking for views to
/// acknowledge: acknowledgements must still arrive exactly when a subscriber wants them, whatever
/// subscriptions were added, removed or revoked before.
@Suite struct ClientViewsTests {
  private static let valueAcknowledged = DatasyncEventType.value(
    change: true, acknowledgement: true)
  private static let valueOnly = DatasyncEventType.value(change: true, acknowledgement: false)

  @Test func acknowledgementsFollowTheSubscribersThatWantThemThroughAddsRemovesAndRevocations()
    throws
  {
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.subscribe(1, "/a", Self.valueAcknowledged), ["send listen /a"]),
      (.subscribe(2, "/a", Self.valueOnly), []),
      (.listenData("/a", "1"), ["s1 =1", "s2 =1"]),
      (.set("/a", "2"), ["s1 =2*", "s2 =2*", "send write 3 set /a 2"]),
      (.acknowledged(3, set: ("/a", "2")), ["s1 ack=2", "answer 3 = 2"]),
      // The acknowledging subscriber goes; the other one stays: no acknowledgement any more.
      (.unsubscribe(1), []),
      (.set("/a", "3"), ["s2 =3*", "send write 4 set /a 3"]),
      (.acknowledged(4, set: ("/a", "3")), ["answer 4 = 3"]),
      // One comes back.
      (.subscribe(5, "/a", Self.valueAcknowledged), ["s5 =3"]),
      (.set("/a", "4"), ["s2 =4*", "s5 =4*", "send write 6 set /a 4"]),
      (.acknowledged(6, set: ("/a", "4")), ["s5 ack=4", "answer 6 = 4"]),
      // The back end revokes every view at /a: none is left to acknowledge.
      (.revoked("/a", .permissionDenied), ["revoke s2 s5 ! permissionDenied"]),
      (.subscribe(7, "/b", Self.valueOnly), ["send listen /b"]),
      (.listenData("/b", "1"), ["s7 =1"]),
      (.set("/b", "2"), ["s7 =2*", "send write 8 set /b 2"]),
      (.acknowledged(8, set: ("/b", "2")), ["answer 8 = 2"]),
      // A new acknowledging subscriber after the revocation gets its acknowledgements.
      (.subscribe(9, "/b", Self.valueAcknowledged), ["s9 =2"]),
      (.set("/b", "3"), ["s7 =3*", "s9 =3*", "send write 10 set /b 3"]),
      (.acknowledged(10, set: ("/b", "3")), ["s9 ack=3", "answer 10 = 3"]),
    ])
  }

  /// A subscriber with the `withoutData` modifier is never shown the value, so its records do not
  /// hold it: a value event waiting for a slow subscriber holds no version of the tree.
  @Test func recordsForSubscribersWithoutDataDoNotHoldTheValue() throws {
    let withoutData = DatasyncEventType.value(
      change: true, withoutData: true, acknowledgement: true)
    var driver = ClientStateMachineDriver()
    try driver.run([
      (.connected(), ["state connected"]),
      (.subscribe(1, "/a", withoutData), ["send listen /a"]),
      (.subscribe(2, "/a", Self.valueOnly), []),
      (.listenData("/a", #"{"b":1}"#), ["s1 =null", "s2 ={\"b\":1}"]),
      (.set("/a/b", "2"), ["s1 =null*", "s2 ={\"b\":2}*", "send write 3 set /a/b 2"]),
      (.acknowledged(3, set: ("/a/b", "2")), ["s1 ack=null", "answer 3 = 2"]),
      (.subscribe(4, "/a", withoutData), ["s4 =null"]),
    ])
  }

  /// A subscriber that folds child events by key (``DeliveryConflation/latestEventPerChild``)
  /// gets them without previous keys, until a subscriber of the same view wants them: from then
  /// on both get them.
  @Test func previousKeysAreFoundOnlyWhileASubscriberOfTheViewWantsThem() throws {
    var machine = ClientStateMachine(backEndError: nil)
    let list = try datasyncPath("/list")
    func previousKeys(_ effects: [ClientEffect]) -> [UInt64: [WebcomKey?]] {
      var keys: [UInt64: [WebcomKey?]] = [:]
      for case .deliver(let records, let identifier) in effects {
        keys[identifier.value, default: []] += records.map(\.previousKey)
      }
      return keys
    }
    _ = machine.receive(.connected(clockOffset: 0))
    _ = machine.subscribe(
      SubscriptionIdentifier(1), at: list, constraint: .all, eventType: .childAddition,
      needsPreviousKeys: DeliveryConflation.latestEventPerChild.carriesPreviousKeys)
    _ = machine.receive(.listenData(list, try jsonValue(#"{"a":1}"#)))
    let alone = machine.receive(.changed(.set(try datasyncPath("/list/b"), .int(2))))
    #expect(previousKeys(alone) == [1: [nil]])
    _ = machine.subscribe(
      SubscriptionIdentifier(2), at: list, constraint: .all, eventType: .childAddition,
      needsPreviousKeys: DeliveryConflation.none.carriesPreviousKeys)
    let shared = machine.receive(.changed(.set(try datasyncPath("/list/c"), .int(3))))
    #expect(previousKeys(shared) == [1: ["b"], 2: ["b"]])
  }
}
