import Testing

@testable import Datasync

@Suite struct ObserverRegistryTests {
  @Test func observersComeOutInTheOrderTheyWereAdded() {
    var registry = ObserverRegistry<String>()
    for name in ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"] {
      _ = registry.add(name)
    }
    #expect(
      registry.inOrder == [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
      ])
  }

  @Test func aTokenRemovesOnlyItsObserverAndOnlyOnce() {
    var registry = ObserverRegistry<String>()
    let first = registry.add("first")
    let second = registry.add("second")
    let third = registry.add("third")
    #expect(Set([first, second, third]).count == 3)
    registry.remove(second)
    registry.remove(second)
    #expect(registry.inOrder == ["first", "third"])
    let fourth = registry.add("fourth")
    #expect(fourth != second)
    #expect(registry.inOrder == ["first", "third", "fourth"])
  }
}
