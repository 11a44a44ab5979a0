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

  /// Without `needsPreviousKeys` the changes are the same, without the previous children's keys.
  @Test func previousKeysAreLeftOutWhenNotNeeded() throws {
    let old = try jsonValue(#"{"list":{"a":1,"c":3}}"#)
    let new = try jsonValue(#"{"list":{"a":1,"b":2,"c":4}}"#)
    let cases: [(DatasyncChildrenConstraint, [WebcomKey?])] = [
      (.all, ["a", "b"]),
      // "c" leaves the window (a removal has no previous key), "b" enters it after "a".
      (.first(limit: 2), [nil, "a"]),
    ]
    for (constraint, previousKeys) in cases {
      func diff(needsPreviousKeys: Bool) throws -> ViewDiff {
        try #require(
          ViewDiff.compute(
            path: try datasyncPath("/list"), constraint: constraint,
            relevance: .children(["b", "c"]), old: old, new: new,
            needsPreviousKeys: needsPreviousKeys))
      }
      let with = try diff(needsPreviousKeys: true)
      let without = try diff(needsPreviousKeys: false)
      #expect(with.children.map(\.previousKey) == previousKeys, "\(constraint)")
      #expect(without.children.map(\.previousKey) == previousKeys.map { _ in nil }, "\(constraint)")
      #expect(with.children.map(\.key) == without.children.map(\.key), "\(constraint)")
      #expect(with.children.map(\.value) == without.children.map(\.value), "\(constraint)")
      #expect(with.window.value == without.window.value, "\(constraint)")
    }
  }
}
