import Testing

@testable import Datasync

@Suite struct PendingWritesTests {
  private static func write(_ identifier: RequestIdentifier, at key: WebcomKey)
    -> PendingWrites.Write
  {
    PendingWrites.Write(
      identifier: identifier, operation: .set(DatasyncPath(validatedKeys: ["a", key]), .int(1)))
  }

  @Test func removingTheLastPendingWriteEmptiesTheStorageAtOnce() {
    var pending = PendingWrites()
    pending.append(Self.write(1, at: "x"))
    pending.append(Self.write(2, at: "y"))
    #expect(pending.remove(1)?.identifier == 1)
    #expect(pending.all.map(\.identifier) == [2])
    #expect(pending.remove(2)?.identifier == 2)
    #expect(pending.isEmpty)
    // Nothing of the removed writes is kept: the storage starts again from its beginning.
    #expect(pending.all.startIndex == 0)
    pending.append(Self.write(3, at: "z"))
    #expect(pending.all.map(\.identifier) == [3])
    #expect(pending.overlaps(DatasyncPath(validatedKeys: ["a"])))
    #expect(!pending.overlaps(DatasyncPath(validatedKeys: ["a", "x"])))
  }

  private static func path(_ string: String) -> DatasyncPath {
    DatasyncPath(
      validatedKeys: string.split(separator: "/").map { WebcomKey(String($0)) })
  }

  /// A write alone answers from its own path, without the indexes: its answers must be those of
  /// the indexes (kept from the second pending write on), for writes of every kind and paths at,
  /// above, below and beside them.
  @Test func aWriteAloneAnswersAsTheIndexesDo() {
    let operations: [WriteOperation] = [
      .set(Self.path("a/b"), .int(1)),
      .set(Self.path(""), .int(1)),
      .compareAndSet(Self.path("a/b"), expected: .null, value: .int(2)),
      .merge(
        Self.path("a"),
        [MergeEntry(keys: ["b"], value: .int(1)), MergeEntry(keys: ["c", "d"], value: .null)]),
      .increment(Self.path("a/b"), start: 0, step: 1),
    ]
    let probes = ["", "a", "a/b", "a/b/x", "a/c", "a/c/d", "a/c/d/e", "a/e", "b", "b/a", "ab"]
    for operation in operations {
      var alone = PendingWrites()
      alone.append(PendingWrites.Write(identifier: 2, operation: operation))
      // The same write left alone after another one: the indexes count it.
      var indexed = PendingWrites()
      indexed.append(PendingWrites.Write(identifier: 1, operation: .set(Self.path("z"), .int(0))))
      indexed.append(PendingWrites.Write(identifier: 2, operation: operation))
      #expect(indexed.remove(1) != nil)
      for probe in probes.map(Self.path) {
        #expect(
          alone.overlaps(probe) == indexed.overlaps(probe), "\(operation) overlaps \(probe)")
        #expect(
          alone.replacesWholeValue(at: probe) == indexed.replacesWholeValue(at: probe),
          "\(operation) replaces \(probe)")
      }
    }
  }

  @Test func aWriteAloneOverlapsAndReplacesAroundItsPath() {
    var pending = PendingWrites()
    pending.append(
      PendingWrites.Write(
        identifier: 1,
        operation: .merge(
          Self.path("a"),
          [MergeEntry(keys: ["b"], value: .int(1)), MergeEntry(keys: ["c", "d"], value: .null)])))
    #expect(pending.overlaps(Self.path("")))
    #expect(pending.overlaps(Self.path("a/e/f")))
    #expect(!pending.overlaps(Self.path("b")))
    #expect(!pending.overlaps(Self.path("ab")))
    #expect(pending.replacesWholeValue(at: Self.path("a/b/x")))
    #expect(pending.replacesWholeValue(at: Self.path("a/c/d")))
    #expect(!pending.replacesWholeValue(at: Self.path("a/c")))
    #expect(!pending.replacesWholeValue(at: Self.path("a")))
    // A second write: the indexes take over, and answer for both.
    pending.append(PendingWrites.Write(identifier: 2, operation: .set(Self.path("b"), .int(1))))
    #expect(pending.overlaps(Self.path("b")))
    #expect(pending.replacesWholeValue(at: Self.path("a/b/x")))
    #expect(pending.replacesWholeValue(at: Self.path("b/c")))
    #expect(pending.remove(1) != nil)
    #expect(!pending.overlaps(Self.path("a")))
    #expect(!pending.replacesWholeValue(at: Self.path("a/b")))
    #expect(pending.replacesWholeValue(at: Self.path("b")))
  }

  /// What a write of `operations` overlaps and replaces, asked of each write in turn.
  private static func expectAnswersOfEachWrite(
    _ pending: PendingWrites, _ operations: [WriteOperation], _ context: String
  ) {
    let probes = [
      "", "a", "b", "a/b", "a/b/c", "a/b/c/x", "a/b/c/x/y", "a/b/d", "a/b/e", "a/b/e/x", "a/b/f",
      "a/b/g/x", "a/c/c", "b/b/c", "a/bc",
    ]
    // The writes give back their operations as appended, whatever their storage.
    #expect(pending.all.map { "\($0.operation)" } == operations.map { "\($0)" }, "\(context)")
    // Taken out of its entry (as an acknowledgement takes it), a write gives the same operation.
    #expect(pending.all.map { "\($0.takeOperation())" } == operations.map { "\($0)" })
    #expect(pending.firstIdentifier == pending.all.first?.identifier, "\(context)")
    for probe in probes.map(Self.path) {
      let overlaps = operations.contains { $0.path.overlaps(probe) }
      let replaces = operations.contains { $0.path.isAncestorOrSelf(of: probe) }
      #expect(pending.overlaps(probe) == overlaps, "\(context): overlaps \(probe)")
      #expect(
        pending.replacesWholeValue(at: probe) == replaces, "\(context): replaces \(probe)")
    }
  }

  /// Sets of children of one node in increasing key order (pushes) answer from their keys,
  /// without a table entry per write, as each write would; a write that breaks the run brings
  /// the indexes, which answer the same.
  @Test func siblingSetsAnswerFromTheirKeysWithoutIndexes() {
    var pending = PendingWrites()
    var operations: [WriteOperation] = []
    for (identifier, key) in zip(1..., ["c", "d", "e", "f"]) {
      let operation = WriteOperation.set(Self.path("a/b/\(key)"), .int(Int64(identifier)))
      pending.append(
        PendingWrites.Write(identifier: RequestIdentifier(identifier), operation: operation))
      operations.append(operation)
      Self.expectAnswersOfEachWrite(pending, operations, "after \(key)")
    }
    #expect(pending.indexedPathCount == 0)
    #expect(pending.remove(2).map { "\($0.operation)" } == "\(operations[1])")
    operations.remove(at: 1)
    Self.expectAnswersOfEachWrite(pending, operations, "without d")
    #expect(pending.indexedPathCount == 0)
    // A key before the last one breaks the run: the indexes count every write from then on.
    let earlier = WriteOperation.set(Self.path("a/b/d"), .int(5))
    pending.append(PendingWrites.Write(identifier: 5, operation: earlier))
    operations.append(earlier)
    #expect(pending.indexedPathCount > 0)
    Self.expectAnswersOfEachWrite(pending, operations, "after d again")
    for identifier in [1, 3, 4, 5] { #expect(pending.remove(RequestIdentifier(identifier)) != nil) }
    #expect(pending.isEmpty)
    #expect(pending.indexedPathCount == 0)
    // A write of another node's child, or of another kind, breaks a run too.
    for other: WriteOperation in [
      .set(Self.path("a/c/c"), .int(1)), .set(Self.path("a/b/g/x"), .int(1)),
      .merge(Self.path("a/b"), [MergeEntry(keys: ["g"], value: .int(1))]),
    ] {
      var broken = PendingWrites()
      let first = WriteOperation.set(Self.path("a/b/c"), .int(0))
      broken.append(PendingWrites.Write(identifier: 1, operation: first))
      broken.append(PendingWrites.Write(identifier: 2, operation: other))
      #expect(broken.indexedPathCount > 0, "\(other)")
      #expect(broken.overlaps(Self.path("a/b/c/x")))
      #expect(broken.overlaps(other.path))
      #expect(!broken.overlaps(Self.path("b")))
    }
  }
}
