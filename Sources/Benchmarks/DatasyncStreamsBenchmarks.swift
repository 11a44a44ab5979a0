import Datasync
import DatasyncStreams
import Dispatch
import Foundation
import Streams

/// Maintaining `children(as:)` on a large node while single children change.
enum DatasyncStreamsBenchmarks {
  static func run(_ harness: BenchmarkHarness) {
    let changes = harness.scaled(2_000)
    let small = childrenMaintenance(harness, children: 1_000, changes: changes)
    let large = childrenMaintenance(harness, children: 100_000, changes: changes)
    harness.reportRatio("streams: children(as:) change, 100k / 1k children", large, small, goal: 3)
  }

  /// Sets `changes` single children of a node of `children` children, each time waiting for the
  /// stream's emission; returns ns per change.
  private static func childrenMaintenance(
    _ harness: BenchmarkHarness, children: Int, changes: Int
  ) -> Double {
    let name = "streams: children(as:) per single-child change, \(children) children"
    guard harness.includes(name) else { return .nan }
    let manager = WebcomApplication(
      configuration: WebcomConfiguration(identifier: "bench-children-\(children)")
    ).datasyncService.createManager()
    guard let node = manager.node(for: "feed") else { return .nan }
    let loaded = DispatchSemaphore(value: 0)
    var initial: [String: Int] = [:]
    for index in 0..<children { initial["k\(index)"] = index }
    node.set(initial, queue: .global()) { _ in loaded.signal() }
    loaded.wait()

    let emitted = DispatchSemaphore(value: 0)
    let cancellable = node.streams.children(as: Int.self).sink(
      receiveCompletion: { _ in }, receiveValue: { _ in emitted.signal() })
    emitted.wait()
    let targets = (0..<changes).map { node.relativeNode(for: "k\(($0 * 7_919) % children)")! }
    var written = 0
    let result = harness.measureBatch(name, operations: changes) {
      for target in targets {
        written += 1
        target.set(-written, queue: .global(), then: nil)
        emitted.wait()
      }
    }
    cancellable.cancel()
    return result
  }
}
