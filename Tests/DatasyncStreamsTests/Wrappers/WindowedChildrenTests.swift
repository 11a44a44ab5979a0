import Datasync
import DatasyncStreams
import Foundation
import Streams
import Testing

/// `children(as:childrenConstraint:)` with a window, while other subscriptions of the same client
/// watch the same node through other views.
@Suite(.timeLimit(.minutes(1))) struct WindowedChildrenTests {
  /// Another subscription on the node, made before the windowed stream.
  enum OtherSubscription: String, CaseIterable, Sendable {
    case valueCallback, valueChangesStream, allChildrenStream
  }

  private final class Keeper: @unchecked Sendable {
    var objects: [Any] = []
  }

  @Test(arguments: OtherSubscription.allCases)
  func aWindowFollowsEveryWriteWhateverTheOtherViews(_ other: OtherSubscription) async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "letters"))
    try await node.set(["a": "a", "b": "b", "c": "c"])
    var cancellables = Set<AnyCancellable>()
    let keeper = Keeper()
    switch other {
    case .valueCallback:
      keeper.objects.append(
        try #require(
          node.subscribe(
            to: .valueChange, stores: false, queue: DispatchQueue(label: "test.other"),
            onEvent: { _ in })))
    case .valueChangesStream:
      node.streams.valueChanges().sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        .store(in: &cancellables)
    case .allChildrenStream:
      node.streams.children(as: String.self)
        .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        .store(in: &cancellables)
    }

    var feed = node.streams.children(as: String.self, childrenConstraint: .last(limit: 2)).values
      .makeAsyncIterator()
    #expect(try await feed.next()?.values == ["b", "c"])
    try await (node / "d")!.set("d")
    let afterD = try #require(try await feed.next())
    #expect(afterD.values == ["c", "d"])
    #expect(afterD.changes.removed == [0] && afterD.changes.inserted == [1])
    try await (node / "e")!.set("e")
    #expect(try await feed.next()?.values == ["d", "e"])
    try await (node / "e")!.set("E")
    let changed = try #require(try await feed.next())
    #expect(changed.values == ["d", "E"])
    #expect(changed.changes.updated == [1])
    withExtendedLifetime(keeper) {}
    cancellables.removeAll()
  }
}
