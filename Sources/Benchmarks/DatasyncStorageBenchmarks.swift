import Datasync
import Dispatch
import Foundation

/// The durable storage cases of `datasync-bench`: opening a file of 1M leaves, the commit of one
/// leaf write with 10k and with 1M stored leaves, and the file's bytes per leaf.
///
/// Files are written to a fresh temporary directory, removed at the end. A quick run stores
/// 100k leaves instead of 1M.
enum DatasyncStorageBenchmarks {
  private static let openCase = "storage: open a file of"
  private static let commitCase = "storage: commit of a leaf write"
  private static let bytesCase = "storage: bytes on disk per leaf"

  static func run(_ harness: BenchmarkHarness) {
    guard [openCase, commitCase, bytesCase].contains(where: harness.includes) else { return }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("datasync-bench-storage-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let largeLeaves = harness.isQuick ? 100_000 : 1_000_000
      let small = try commitCost(harness, directory: directory, leaves: 10_000)
      let large = try commitCost(harness, directory: directory, leaves: largeLeaves)
      harness.reportRatio(
        "storage: commit of a leaf write, \(label(largeLeaves)) / 10k stored leaves", large, small,
        goal: 2)
      _ = try commitCost(harness, directory: directory, leaves: 10_000, flushesEveryCommit: true)
      try openAndSize(harness, directory: directory, leaves: largeLeaves)
    } catch {
      print("storage: the benchmark failed: \(error)")
    }
  }

  private static func label(_ leaves: Int) -> String {
    leaves >= 1_000_000 ? "\(leaves / 1_000_000)M" : "\(leaves / 1_000)k"
  }

  /// Creates a file of `leaves` leaves in objects of 1,000.
  private static func makeFile(
    in directory: URL, leaves: Int, flushesEveryCommit: Bool = false
  ) throws -> (path: String, store: StorageProbe) {
    let path = directory.appendingPathComponent("\(leaves)-\(UUID().uuidString).sqlite").path
    let store = try StorageProbe(path: path, flushesEveryCommit: flushesEveryCommit)
    try store.fill(groups: leaves / 1_000, leavesPerGroup: 1_000)
    return (path, store)
  }

  /// The time of one commit writing one leaf (a new string at a pseudo-random place among the
  /// stored leaves); returns ns per commit.
  private static func commitCost(
    _ harness: BenchmarkHarness, directory: URL, leaves: Int, flushesEveryCommit: Bool = false
  ) throws -> Double {
    let name =
      "\(commitCase), \(label(leaves)) stored leaves"
      + (flushesEveryCommit ? ", synchronous=FULL" : ", synchronous=NORMAL")
    guard harness.includes(name) else { return .nan }
    let (path, store) = try makeFile(
      in: directory, leaves: leaves, flushesEveryCommit: flushesEveryCommit)
    defer {
      store.close()
      try? FileManager.default.removeItem(atPath: path)
    }
    var position: UInt64 = 0
    var failure: (any Error)?
    let commits = harness.scaled(flushesEveryCommit ? 500 : 5_000)
    let nanoseconds = harness.measureBatch(name, operations: commits) {
      for _ in 0..<commits {
        // A multiplicative sequence visits the leaves in a scattered order.
        position = (position &+ 1) &* 0x9E37_79B9_7F4A_7C15
        let leaf = Int(position >> 33) % leaves
        do {
          try store.setLeaf(group: leaf / 1_000, leaf: leaf % 1_000, to: "written \(position)")
        } catch {
          failure = error
        }
      }
    }
    if let failure { throw failure }
    return nanoseconds
  }

  /// Opens a file of `leaves` leaves and reads its tree (best of 3), then reports the file's
  /// size per leaf.
  private static func openAndSize(_ harness: BenchmarkHarness, directory: URL, leaves: Int)
    throws
  {
    let (path, store) = try makeFile(in: directory, leaves: leaves)
    store.close()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let openName = "\(openCase) \(label(leaves)) leaves and read its tree"
    if harness.includes(openName) {
      var best = Double.infinity
      for _ in 0..<3 {
        let start = DispatchTime.now().uptimeNanoseconds
        let reopened = try StorageProbe(path: path)
        let tree = try reopened.load()
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        reopened.close()
        guard tree.groupCount == leaves / 1_000 else {
          throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
        }
        best = min(best, Double(elapsed) / 1e6)
      }
      harness.report(openName, value: best, unit: "ms")
    }
    let bytesName = "\(bytesCase) at \(label(leaves)) leaves (keys k<n> in g<n>, short strings)"
    if harness.includes(bytesName) {
      let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
      harness.report(bytesName, value: Double(size) / Double(leaves), unit: "bytes")
    }
  }
}
