import Foundation
import Testing

@testable import Datasync

@Suite struct ViewRelevanceTests {
  private static func path(_ keys: WebcomKey...) -> DatasyncPath {
    DatasyncPath(validatedKeys: keys)
  }

  private static func description(_ relevance: ViewRelevance) -> String {
    switch relevance {
    case .none: "none"
    case .whole: "whole"
    case .children(let keys): "children " + keys.sorted().map(\.value).joined(separator: ",")
    case .someChildren: "some children"
    }
  }

  @Test func withoutNamesTheTouchedChildrenAreOnlyTold() {
    let list = Self.path("a", "list")
    let cases: [([ChangeEffect], named: String, unnamed: String)] = [
      // A write below the node: a child touched.
      (
        [ChangeEffect(path: Self.path("a", "list", "x", "y"), children: nil)], "children x",
        "some children"
      ),
      // A write at the node naming children, then one below it.
      (
        [
          ChangeEffect(path: list, children: ["b", "c"]),
          ChangeEffect(path: Self.path("a", "list", "d"), children: nil),
        ],
        "children b,c,d", "some children"
      ),
      // A child touched first, then the whole node replaced.
      (
        [
          ChangeEffect(path: Self.path("a", "list", "x"), children: nil),
          ChangeEffect(path: Self.path("a"), children: ["list"]),
        ],
        "whole", "whole"
      ),
      // A write at the node naming no child, and writes elsewhere.
      (
        [
          ChangeEffect(path: list, children: []),
          ChangeEffect(path: Self.path("a"), children: ["other"]),
          ChangeEffect(path: Self.path("b", "list"), children: nil),
        ],
        "none", "none"
      ),
    ]
    for (effects, named, unnamed) in cases {
      #expect(Self.description(ViewRelevance(of: effects, at: list)) == named)
      #expect(
        Self.description(ViewRelevance(of: effects, at: list, namesChildren: false)) == unnamed)
    }
  }

  @Test func unnamedChildrenGiveTheDiffOfTheWholeWindow() throws {
    let old = try JSONValue.fromJSONData(Data(#"{"l":{"a":1,"b":2}}"#.utf8))
    let new = try JSONValue.fromJSONData(Data(#"{"l":{"a":1,"b":3,"c":4}}"#.utf8))
    let diff = try #require(
      ViewDiff.compute(
        path: Self.path("l"), constraint: .all, relevance: .someChildren, old: old, new: new))
    #expect(diff.valueChanged)
    #expect(diff.children.map { "\($0.kind) \($0.key.value)" } == ["addition c", "change b"])
    let valueOnly = try #require(
      ViewDiff.compute(
        path: Self.path("l"), constraint: .all, relevance: .someChildren, old: old, new: new,
        needsChildChanges: false))
    #expect(valueOnly.valueChanged && valueOnly.children.isEmpty)
  }
}
