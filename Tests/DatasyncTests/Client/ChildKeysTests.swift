import Testing

@testable import Datasync

@Suite struct ChildKeysTests {
  @Test func eachKeyIsKeptOnceWhateverTheOrderOfInsertion() {
    var keys: ChildKeys = []
    #expect(keys.isEmpty && keys.count == 0 && Array(keys).isEmpty)
    keys.insert("b")
    #expect(!keys.isEmpty && keys.count == 1 && Array(keys) == ["b"])
    keys.insert("b")
    keys.formUnion(["a", "c", "a", "b"])
    #expect(keys.count == 3)
    #expect(Array(keys).first == "b")
    #expect(keys.sorted() == ["a", "b", "c"])
    #expect(keys.contains("a") && keys.contains("b") && keys.contains("c"))
    #expect(!keys.contains("d"))
  }

  @Test func aLiteralDropsRepeatedKeys() {
    let keys: ChildKeys = ["x", "y", "x"]
    #expect(keys.count == 2)
    #expect(keys.sorted() == ["x", "y"])
  }
}
