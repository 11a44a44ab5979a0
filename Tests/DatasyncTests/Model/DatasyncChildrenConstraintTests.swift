import Testing

@testable import Datasync

@Suite struct DatasyncChildrenConstraintTests {
  private let children = JSONObject(
    ["1", "2", "10", "a", "b", "c"].map { (WebcomKey($0), JSONValue.bool(true)) })

  private func keys(_ constraint: DatasyncChildrenConstraint) -> [WebcomKey] {
    children.elements(in: constraint.window(in: children)).map(\.key)
  }

  @Test func windows() {
    #expect(keys(.all) == ["1", "2", "10", "a", "b", "c"])
    #expect(keys(.first(limit: 2)) == ["1", "2"])
    #expect(keys(.first(limit: 20)).count == 6)
    #expect(keys(.last(limit: 2)) == ["b", "c"])
    #expect(keys(.startAt(key: "10")) == ["10", "a", "b", "c"])
    #expect(keys(.startAt(key: "3", limit: 2)) == ["10", "a"])
    #expect(keys(.endAt(key: "a")) == ["1", "2", "10", "a"])
    #expect(keys(.endAt(key: "aa", limit: 2)) == ["10", "a"])
    #expect(keys(.endAt(key: "0")).isEmpty)
    #expect(keys(.startAt(key: "d")).isEmpty)
  }

  @Test func aLimitIsAnUpperBoundUpToIntMax() {
    let all: [WebcomKey] = ["1", "2", "10", "a", "b", "c"]
    #expect(keys(.first(limit: .max)) == all)
    #expect(keys(.last(limit: .max)) == all)
    #expect(keys(.startAt(key: "b", limit: .max)) == ["b", "c"])
    #expect(keys(.startAt(key: "0", limit: .max)) == all)
    #expect(keys(.startAt(key: "d", limit: .max)).isEmpty)
    #expect(keys(.endAt(key: "2", limit: .max)) == ["1", "2"])
    #expect(keys(.endAt(key: "z", limit: .max)) == all)
    #expect(keys(.startAt(key: "2", limit: .max - 1)) == ["2", "10", "a", "b", "c"])
    #expect(keys(.last(limit: 5)) == ["2", "10", "a", "b", "c"])
    let empty = JSONObject()
    #expect(DatasyncChildrenConstraint.startAt(key: "a", limit: .max).window(in: empty) == 0..<0)
    #expect(DatasyncChildrenConstraint.endAt(key: "a", limit: .max).window(in: empty) == 0..<0)
  }

  @Test func theErrorNamesTheConstraintAndItsLimit() {
    let error = #expect(throws: WebcomError.self) {
      try DatasyncChildrenConstraint.startAt(key: "k", limit: -3).validate()
    }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains(#".startAt(key: "k", limit: -3)"#) == true)
  }

  @Test func limitsMustBePositive() throws {
    try DatasyncChildrenConstraint.first(limit: 1).validate()
    try DatasyncChildrenConstraint.all.validate()
    try DatasyncChildrenConstraint.startAt(key: "a").validate()
    for constraint in [
      DatasyncChildrenConstraint.first(limit: 0), .last(limit: -1), .startAt(key: "a", limit: 0),
      .endAt(key: "a", limit: -5),
    ] {
      #expect(throws: WebcomError.self) { try constraint.validate() }
      #expect(constraint.window(in: children).isEmpty)
    }
  }

  @Test func defaultLimitsAreNil() {
    #expect(DatasyncChildrenConstraint.startAt(key: "a") == .startAt(key: "a", limit: nil))
    #expect(DatasyncChildrenConstraint.endAt(key: "a").limit == nil)
    #expect(DatasyncChildrenConstraint.last(limit: 3).limit == 3)
  }
}
