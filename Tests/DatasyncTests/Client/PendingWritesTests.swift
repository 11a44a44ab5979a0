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
}
