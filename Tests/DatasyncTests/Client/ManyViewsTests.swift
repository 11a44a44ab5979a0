import Testing

@testable import Datasync

/// A client with more views and listens than it looks at one by one (it then finds them by path):
/// a change reaches exactly the views at, above and below what it changed, in the usual order;
/// a change beside every listen is dropped; a revocation ends the views at and below its path.
@Suite struct ManyViewsTests {
  private static let childEvents = DatasyncEventType.child(
    addition: true, change: true, removal: true)
  /// The rows, each watched by a view of its own: more views than the client looks at one by one.
  private static let rows = (0..<(PathTrie<Int>.linearLimit + 4)).map {
    "r" + String($0 + 100).dropFirst()
  }

  /// The subscription of a row's view.
  private static func subscription(ofRow index: Int) -> UInt64 { UInt64(2 + index) }

  /// A connected client watching /rows (child events, s1), each row (value events) and /other
  /// (value events, s100), with the rows' data loaded (row i holds i) and /other's (1).
  private static func driverWatchingEveryRow() throws -> ClientStateMachineDriver {
    var driver = ClientStateMachineDriver()
    var table: [(ClientStateMachineDriver.Step, [String])] = [
      (.connected(), ["state connected"]),
      (.subscribe(1, "/rows", childEvents), ["send listen /rows"]),
    ]
    for (index, row) in rows.enumerated() {
      table.append(
        (
          .subscribe(subscription(ofRow: index), "/rows/\(row)", .valueChange),
          ["send listen /rows/\(row)"]
        ))
    }
    table.append((.subscribe(100, "/other", .valueChange), ["send listen /other"]))
    let rowsJSON =
      "{" + rows.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
    table.append(
      (
        .listenData("/rows", rowsJSON),
        ["s1 " + rows.map { "+" + $0 }.joined(separator: " ")]
          + rows.indices.map { "s\(subscription(ofRow: $0)) =\($0)" }
      ))
    table.append((.listenData("/other", "1"), ["s100 =1"]))
    try driver.run(table)
    return driver
  }

  @Test func aWriteReachesTheViewsOfItsPathAndThoseAboveIt() throws {
    var driver = try Self.driverWatchingEveryRow()
    // Request identifiers 1 to 14 went to the subscriptions.
    try driver.run([
      (.set("/rows/r03", "30"), ["s1 ~r03*", "s5 =30*", "send write 15 set /rows/r03 30"]),
      (.acknowledged(15, set: ("/rows/r03", "30")), ["answer 15 = 30"]),
      (.changed("/rows/r07", "70"), ["s1 ~r07", "s9 =70"]),
      (.changed("/rows/r07/deep", "1"), ["s1 ~r07", "s9 ={\"deep\":1}"]),
    ])
  }

  @Test func aChangeAboveReachesEveryViewBelowInEventOrder() throws {
    var driver = try Self.driverWatchingEveryRow()
    let removals = Self.rows.dropFirst().map { "-" + $0 }.joined(separator: " ")
    let values =
      ["s2 =1"] + Self.rows.indices.dropFirst().map { "s\(Self.subscription(ofRow: $0)) =null" }
    try driver.run([
      (.changed("/rows", #"{"r00":1}"#), ["s1 \(removals) ~r00"] + values),
      (.changed("/other", "2"), ["s100 =2"]),
    ])
  }

  @Test func aChangeBesideEveryListenIsDropped() throws {
    var driver = try Self.driverWatchingEveryRow()
    try driver.run([
      (.changed("/elsewhere/x", "1"), []),
      (.changed("/row", "1"), []),
      (.read("/elsewhere"), ["send read 15 /elsewhere"]),
    ])
  }

  @Test func aRevocationEndsTheViewsAtAndBelowItsPath() throws {
    var driver = try Self.driverWatchingEveryRow()
    let revoked = (1...Self.rows.count + 1).map { "s\($0)" }.joined(separator: " ")
    try driver.run([
      (.revoked("/rows", .permissionDenied), ["revoke \(revoked) ! permissionDenied"]),
      (.changed("/rows/r02", "5"), []),
      (.changed("/other", "2"), ["s100 =2"]),
    ])
  }
}
