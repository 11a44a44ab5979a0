import Datasync
import Dispatch
import Foundation

/// The durable storage cases of `datasync-bench`: opening a file of 1M leaves, the commit of one
/// leaf write with 10k and with 1M stored leaves, and the file's bytes per leaf.
///
/// Files are written to a fresh temporary directory, removed at the end. A quick run stores
/// 100k leaves instead of 1M.
enum DatasyncStorageBenchmarks {
  private static let commitCase = "storage: commit of a leaf write"

  /// Runs the selected cases (each creates its files only when it is selected).
  static func run(_ harness: BenchmarkHarness) {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("datasync-bench-storage-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let largeLeaves = harness.isQuick ? 100_000 : 1_000_000
      let costs = try commitCosts(
        harness, directory: directory,
        files: [(10_000, false), (largeLeaves, false), (10_000, true)])
      harness.reportRatio(
        "storage: commit of a leaf write, \(label(largeLeaves)) / 10k stored leaves", costs[1],
        costs[0], goal: 2)
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
  /// stored leaves), for files of the given sizes and durabilities; returns ns per commit for
  /// each file (NaN for a case not selected).
  ///
  /// The files are measured in alternating rounds and the best round of each is kept, so that a
  /// change of the machine's load between rounds hits every file alike. A round of 1,000 commits
  /// includes about one checkpoint of the log (SQLite's default: every 1,000 pages).
  private static func commitCosts(
    _ harness: BenchmarkHarness, directory: URL, files: [(leaves: Int, flushesEveryCommit: Bool)]
  ) throws -> [Double] {
    let names = files.map { file in
      "\(commitCase), \(label(file.leaves)) stored leaves"
        + (file.flushesEveryCommit ? ", synchronous=FULL" : ", synchronous=NORMAL")
    }
    let stores = try zip(files, names).map { file, name in
      harness.includes(name)
        ? try makeFile(
          in: directory, leaves: file.leaves, flushesEveryCommit: file.flushesEveryCommit
        ).store
        : nil
    }
    defer {
      for store in stores { store?.close() }
    }
    var best = [Double](repeating: .infinity, count: files.count)
    var position: UInt64 = 0
    for round in 0...10 {
      for (index, file) in files.enumerated() {
        guard let store = stores[index] else { continue }
        // A flush per commit makes those commits a thousand times slower: fewer of them.
        let commits = harness.scaled(file.flushesEveryCommit ? 50 : 1_000)
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<commits {
          // A multiplicative sequence visits the leaves in a scattered order.
          position = (position &+ 1) &* 0x9E37_79B9_7F4A_7C15
          let leaf = Int(position >> 33) % file.leaves
          try store.setLeaf(group: leaf / 1_000, leaf: leaf % 1_000, to: "written \(position)")
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        // Round 0 warms the caches up.
        if round > 0 { best[index] = min(best[index], elapsed / Double(commits)) }
      }
    }
    for (index, name) in names.enumerated() where stores[index] != nil {
      harness.report(name, value: best[index], unit: "ns/op")
    }
    return zip(best, stores).map { $1 == nil ? .nan : $0 }
  }

  /// Opens a file of `leaves` leaves and reads its tree (best of 3), then reports the file's
  /// size per leaf.
  private static func openAndSize(_ harness: BenchmarkHarness, directory: URL, leaves: Int)
    throws
  {
    let openName = "storage: open a file of \(label(leaves)) leaves and read its tree"
    let bytesName =
      "storage: bytes on disk per leaf at \(label(leaves)) leaves (keys k<n> in g<n>, short strings)"
    guard harness.includes(openName) || harness.includes(bytesName) else { return }
    let (path, store) = try makeFile(in: directory, leaves: leaves)
    store.close()
    defer { try? FileManager.default.removeItem(atPath: path) }
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
    if harness.includes(bytesName) {
      let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
      harness.report(bytesName, value: Double(size) / Double(leaves), unit: "bytes")
    }
  }
}
