import Foundation
import Testing

@testable import Datasync

@Suite struct BenchmarkEntryPointsTests {
  @Test func entryPointsRunTheModelAndValues() throws {
    #expect(try BenchmarkEntryPoints.parsePath("/a/b/../c/d") == 3)
    #expect(throws: WebcomError.self) { try BenchmarkEntryPoints.parsePath("/a#b") }
    #expect(BenchmarkEntryPoints.nextPushIdentifier().date != nil)
    #expect(
      try BenchmarkEntryPoints.encodeToValueModel(["a": 1, "b": 2], encoder: JSONEncoder()) == 2)
    let encoded = try BenchmarkEntryPoints.encodedValue(["a": 1], encoder: JSONEncoder())
    #expect(
      try BenchmarkEntryPoints.decode(encoded, as: [String: Int].self, decoder: JSONDecoder()) == [
        "a": 1
      ])
    let probe = BenchmarkEntryPoints.makeObject(count: 100)
    #expect(probe.count == 100)
    #expect(probe.countAfterSetting("x", for: "-") == 101)
    #expect(probe.rank(of: "-") == 0)
    #expect(probe.rank(of: "zzzzzzzzzzzzzzzzzzzz") == 100)
  }
}
