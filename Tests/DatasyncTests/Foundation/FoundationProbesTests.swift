import Foundation
import Testing

@testable import Datasync

@Suite struct FoundationProbesTests {
  @Test func probesRunTheFoundations() throws {
    #expect(try FoundationProbes.parsePath("/a/b/../c/d") == 3)
    #expect(throws: WebcomError.self) { try FoundationProbes.parsePath("/a#b") }
    #expect(FoundationProbes.nextPushIdentifier().date != nil)
    #expect(try FoundationProbes.encodeToValueModel(["a": 1, "b": 2], encoder: JSONEncoder()) == 2)
    let encoded = try FoundationProbes.encodedValue(["a": 1], encoder: JSONEncoder())
    #expect(
      try FoundationProbes.decode(encoded, as: [String: Int].self, decoder: JSONDecoder()) == [
        "a": 1
      ])
    let probe = FoundationProbes.makeObject(count: 100)
    #expect(probe.count == 100)
    #expect(probe.countAfterSetting("x", for: "-") == 101)
    #expect(probe.rank(of: "-") == 0)
    #expect(probe.rank(of: "zzzzzzzzzzzzzzzzzzzz") == 100)
  }
}
