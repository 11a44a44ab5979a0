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
}
