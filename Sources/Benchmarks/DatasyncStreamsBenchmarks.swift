import Datasync
import DatasyncStreams
import Dispatch
import Foundation
import Streams

/// Maintaining `children(as:)` on a large node while single children change.
enum DatasyncStreamsBenchmarks {
  static func run(_ harness: BenchmarkHarness) {
    let smallName = "streams: children(as:) per single-child change, 1000 children"
    let largeName = "streams: children(as:) per single-child change, 100000 children"
    guard [smallName, largeName].contains(where: harness.includes) else { return }
    let changes = harness.scaled(2_000)
    // Both nodes are made first, then measured in alternating runs: the cost of a change is
    // mostly thread wake-ups, which a shared machine's load changes from one second to the next.
    guard let small = ChildrenMaintenance(children: 1_000, changes: changes),
      let large = ChildrenMaintenance(children: 100_000, changes: changes)
    else { return }
    let (smallTime, largeTime) = harness.measureBatchPair(
      smallName, largeName, operations: changes, first: small.run, second: large.run)
    harness.reportRatio(
      "streams: children(as:) change, 100k / 1k children", largeTime, smallTime, goal: 3)
  }
}

/// A node of `children` children maintained with `children(as:)`, and the single children its
/// runs set.
private final class ChildrenMaintenance {
  private let node: DatasyncNode
  private let targets: [DatasyncNode]
  private let emitted = DispatchSemaphore(value: 0)
  private var cancellable: AnyCancellable?
  private var written = 0

  init?(children: Int, changes: Int) {
    let manager = WebcomApplication(
      configuration: WebcomConfiguration(identifier: "bench-children-\(children)")
    ).datasyncService.createManager()
    guard let node = manager.node(for: "feed") else { return nil }
    self.node = node
    let loaded = DispatchSemaphore(value: 0)
    var initial: [String: Int] = [:]
    for index in 0..<children { initial["k\(index)"] = index }
    node.set(initial, queue: .global()) { _ in loaded.signal() }
    loaded.wait()
    targets = (0..<changes).map { node.relativeNode(for: "k\(($0 * 7_919) % children)")! }
    let emitted = emitted
    cancellable = node.streams.children(as: Int.self).sink(
      receiveCompletion: { _ in }, receiveValue: { _ in emitted.signal() })
    emitted.wait()
  }

  deinit {
    cancellable?.cancel()
  }

  /// Sets each target once, each time waiting for the stream's emission.
  func run() {
    for target in targets {
      written += 1
      target.set(-written, queue: .global(), then: nil)
      emitted.wait()
    }
  }
}
