import Datasync
import Testing

@testable import DatasyncStreams
@testable import datasync

/// The demo's monitor counts a message shown twice as a duplicate, and nothing else.
@Suite struct FeedMonitorTests {
  private func feed(
    _ keys: [WebcomKey], inserted: [Int], removed: [Int] = [], initial: Bool = false
  ) -> FeedUpdate {
    var tree = PersistentOrderedMap<KeyValueNode<ChatMessage>>()
    for key in keys { tree = tree.setting(ChatMessage(author: "a", text: key.value), for: key) }
    let changes = DatasyncChildrenChanges(
      inserted: inserted, removed: removed, updated: [], isInitialLoad: initial)
    return FeedUpdate(DatasyncChildren(tree: tree, changes: changes, undecodableCount: 0))
  }

  @Test func aKeyInsertedWhileShownIsADuplicate() {
    let monitor = FeedMonitor()
    monitor.record(feed(["a", "b"], inserted: [0, 1], initial: true))
    monitor.record(feed(["a", "b", "c"], inserted: [2]))
    #expect(monitor.snapshot().duplicates == 0)
    // "b" is announced as inserted again while the feed already shows it.
    monitor.record(feed(["a", "b", "c"], inserted: [1]))
    #expect(monitor.snapshot().duplicates == 1)
    #expect(monitor.snapshot().liveInsertions == 2)
  }

  @Test func aKeyRemovedThenInsertedAgainIsNoDuplicate() {
    let monitor = FeedMonitor()
    monitor.record(feed(["a", "b"], inserted: [0, 1], initial: true))
    // Removed and inserted in one update (a conflated emission), then removed, then back.
    monitor.record(feed(["a", "b"], inserted: [0], removed: [0]))
    monitor.record(feed(["b"], inserted: [], removed: [0]))
    monitor.record(feed(["a", "b"], inserted: [0]))
    #expect(monitor.snapshot().duplicates == 0)
    #expect(monitor.snapshot(checkingKeys: true).isOrdered)
  }
}
