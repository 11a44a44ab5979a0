import Foundation
import Testing

@testable import Datasync

/// The events a change raises on one view, and the value-only diff of a view whose subscribers
/// take value events alone.
@Suite struct ViewDiffTests {
  private static func diff(
    _ old: String, _ new: String, relevance: ViewRelevance,
    constraint: DatasyncChildrenConstraint = .all, needsChildChanges: Bool
  ) throws -> ViewDiff? {
    ViewDiff.compute(
      path: try datasyncPath("/list"), constraint: constraint, relevance: relevance,
      old: try jsonValue(old), new: try jsonValue(new), needsChildChanges: needsChildChanges)
  }

  @Test func valueOnlyDiffOfChangedChildrenHasTheNewValueAndNoChildEvents() throws {
    let diff = try #require(
      try Self.diff(
        #"{"list":{"a":1}}"#, #"{"list":{"a":1,"b":2}}"#, relevance: .children(["b"]),
        needsChildChanges: false))
    #expect(diff.valueChanged)
    #expect(diff.children.isEmpty)
    #expect(diff.window.value == (try jsonValue(#"{"a":1,"b":2}"#)))
  }

  @Test func valueOnlyDiffOfAnUnchangedWholeNodeIsNil() throws {
    let diff = try Self.diff(
      #"{"list":{"a":1},"other":1}"#, #"{"list":{"a":1},"other":2}"#, relevance: .whole,
      needsChildChanges: false)
    #expect(diff == nil)
  }

  @Test func valueOnlyDiffOfAChangedWholeNodeHasTheNewValue() throws {
    let diff = try #require(
      try Self.diff(
        #"{"list":{"a":1}}"#, #"{"list":"text"}"#, relevance: .whole, needsChildChanges: false))
    #expect(diff.valueChanged)
    #expect(diff.window.value == .string("text"))
  }

  @Test func valueOnlyDiffAgreesWithTheFullDiffOnTheValue() throws {
    let cases: [(String, String, ViewRelevance)] = [
      (#"{"list":{"a":1}}"#, #"{"list":{"a":1,"b":2}}"#, .children(["b"])),
      (#"{"list":{"a":1,"b":2}}"#, #"{"list":{"b":2}}"#, .children(["a"])),
      (#"{"list":{"a":1}}"#, #"{"list":{"a":3}}"#, .whole),
      (#"{"list":{"a":1}}"#, #"{"list":{"a":1}}"#, .whole),
      (#"{"list":{"a":1}}"#, #"{}"#, .whole),
    ]
    for (old, new, relevance) in cases {
      let full = try Self.diff(old, new, relevance: relevance, needsChildChanges: true)
      let valueOnly = try Self.diff(old, new, relevance: relevance, needsChildChanges: false)
      #expect(full?.valueChanged == valueOnly?.valueChanged, "\(old) -> \(new)")
      #expect(full?.window.value == valueOnly?.window.value, "\(old) -> \(new)")
    }
  }

  @Test func aLimitedViewStillComputesItsChildChanges() throws {
    // A limited window's value depends on which children enter or leave it.
    let diff = try #require(
      try Self.diff(
        #"{"list":{"b":2,"c":3}}"#, #"{"list":{"a":1,"b":2,"c":3}}"#, relevance: .children(["a"]),
        constraint: .first(limit: 2), needsChildChanges: false))
    #expect(diff.children.map(\.key) == ["c", "a"])
    #expect(diff.valueChanged)
    #expect(diff.window.value == (try jsonValue(#"{"a":1,"b":2}"#)))
  }
}
