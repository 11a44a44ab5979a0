import Foundation

/// Runs benchmark cases and prints one line per case: name, ns per operation, and a ratio where a
/// case is compared to a floor measured in the same run.
///
/// Each case body is run `iterations` times per round after a warm-up; the best of three rounds
/// is reported, which keeps the figures stable on a shared machine. `--quick` divides iterations
/// by 20 for a smoke run; `--filter TEXT` runs only the cases whose name contains TEXT;
/// `--cpu-time` times the single-threaded cases (`measure`, `measurePair`, `measureBatch`) by the
/// CPU time of the measuring thread instead of the wall clock, which leaves out the time other
/// processes take from it on a busy machine; the cases that wait for other threads
/// (`measureCrossThreadBatch`, `measureBatchPair`) are always timed on the wall clock.
final class BenchmarkHarness {
  let isQuick: Bool
  private let filter: String?
  private let usesThreadCPUTime: Bool

  init(arguments: [String]) {
    isQuick = arguments.contains("--quick")
    usesThreadCPUTime = arguments.contains("--cpu-time")
    if let index = arguments.firstIndex(of: "--filter"), index + 1 < arguments.count {
      filter = arguments[index + 1]
    } else {
      filter = nil
    }
  }

  /// Whether a case of this name runs in this invocation.
  func includes(_ name: String) -> Bool {
    filter.map { name.localizedCaseInsensitiveContains($0) } ?? true
  }

  /// Scales an iteration count for a quick run.
  func scaled(_ iterations: Int) -> Int {
    isQuick ? max(1, iterations / 20) : iterations
  }

  /// Measures `body`, run `iterations` times, and returns nanoseconds per run.
  @discardableResult
  func measure(_ name: String, iterations: Int, _ body: () -> Void) -> Double {
    guard includes(name) else { return .nan }
    let count = scaled(iterations)
    for _ in 0..<max(1, count / 10) { body() }
    var best = Double.infinity
    for _ in 0..<3 {
      let start = singleThreadNanoseconds()
      for _ in 0..<count { body() }
      let elapsed = singleThreadNanoseconds() - start
      best = min(best, Double(elapsed) / Double(count))
    }
    report(name, value: best, unit: "ns/op")
    return best
  }

  /// Measures two bodies, each run `iterations` times per round, in alternating rounds (five of
  /// each, the floor first), and returns nanoseconds per run of each, best round: a machine that
  /// slows down or speeds up during the measurement affects both alike, so that their ratio
  /// holds. Both run when either name is included.
  func measurePair(
    floor floorName: String, _ caseName: String, iterations: Int, floor: () -> Void,
    case body: () -> Void
  ) -> (floor: Double, case: Double) {
    guard includes(floorName) || includes(caseName) else { return (.nan, .nan) }
    let count = scaled(iterations)
    for _ in 0..<max(1, count / 10) {
      floor()
      body()
    }
    let best = alternate(
      rounds: 5, operations: count, clock: singleThreadNanoseconds,
      { for _ in 0..<count { floor() } }, { for _ in 0..<count { body() } })
    report(floorName, value: best.first, unit: "ns/op")
    report(caseName, value: best.second, unit: "ns/op")
    return (best.first, best.second)
  }

  /// Runs `first` then `second`, `rounds` times, each run performing `operations` operations;
  /// returns ns per operation of each, best run.
  private func alternate(
    rounds: Int, operations: Int, clock: () -> UInt64, _ first: () -> Void,
    _ second: () -> Void
  ) -> (first: Double, second: Double) {
    var best = (first: Double.infinity, second: Double.infinity)
    for _ in 0..<rounds {
      var start = clock()
      first()
      best.first = min(best.first, Double(clock() - start) / Double(operations))
      start = clock()
      second()
      best.second = min(best.second, Double(clock() - start) / Double(operations))
    }
    return best
  }

  /// Measures one run of `body` that performs `operations` operations on the calling thread;
  /// returns ns per operation.
  @discardableResult
  func measureBatch(_ name: String, operations: Int, _ body: () -> Void) -> Double {
    measureBatch(name, operations: operations, clock: singleThreadNanoseconds, body)
  }

  /// Measures one run of `body` that performs `operations` operations each waiting for other
  /// threads (a request and its answer, a write and its event), on the wall clock; returns ns
  /// per operation.
  @discardableResult
  func measureCrossThreadBatch(_ name: String, operations: Int, _ body: () -> Void) -> Double {
    measureBatch(
      name, operations: operations, clock: { DispatchTime.now().uptimeNanoseconds }, body)
  }

  private func measureBatch(
    _ name: String, operations: Int, clock: () -> UInt64, _ body: () -> Void
  ) -> Double {
    guard includes(name) else { return .nan }
    body()
    var best = Double.infinity
    for _ in 0..<3 {
      let start = clock()
      body()
      let elapsed = clock() - start
      best = min(best, Double(elapsed) / Double(operations))
    }
    report(name, value: best, unit: "ns/op")
    return best
  }

  /// Measures two bodies that each perform `operations` operations across threads (a write and
  /// the wait for its event), in alternating runs (three of each, `first` first, after one
  /// warm-up run of each), on the wall clock whatever `--cpu-time` says; returns ns per operation
  /// of each, best run. As with ``measurePair(floor:_:iterations:floor:case:)``, a machine that
  /// slows down or speeds up during the measurement affects both alike. Both run when either
  /// name is included.
  func measureBatchPair(
    _ firstName: String, _ secondName: String, operations: Int, first: () -> Void,
    second: () -> Void
  ) -> (first: Double, second: Double) {
    guard includes(firstName) || includes(secondName) else { return (.nan, .nan) }
    first()
    second()
    let best = alternate(
      rounds: 3, operations: operations, clock: { DispatchTime.now().uptimeNanoseconds }, first,
      second)
    report(firstName, value: best.first, unit: "ns/op")
    report(secondName, value: best.second, unit: "ns/op")
    return best
  }

  /// Measures one run of the async `body` performing `operations` operations; ns per operation.
  @discardableResult
  func measureAsyncBatch(_ name: String, operations: Int, _ body: () async -> Void) async -> Double
  {
    guard includes(name) else { return .nan }
    await body()
    var best = Double.infinity
    for _ in 0..<3 {
      let start = DispatchTime.now().uptimeNanoseconds
      await body()
      let elapsed = DispatchTime.now().uptimeNanoseconds - start
      best = min(best, Double(elapsed) / Double(operations))
    }
    report(name, value: best, unit: "ns/op")
    return best
  }

  /// Times exactly `iterations` calls of `body`, without warm-up (for bodies that count their
  /// calls), and returns nanoseconds per call.
  @discardableResult
  func measureExactly(_ name: String, iterations: Int, _ body: () -> Void) -> Double {
    guard includes(name) else { return .nan }
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { body() }
    let nanoseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations)
    report(name, value: nanoseconds, unit: "ns/op")
    return nanoseconds
  }

  /// The clock of the single-threaded cases: the wall clock, or the calling thread's CPU time
  /// with `--cpu-time`.
  private func singleThreadNanoseconds() -> UInt64 {
    guard usesThreadCPUTime else { return DispatchTime.now().uptimeNanoseconds }
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// Prints a measured figure.
  func report(_ name: String, value: Double, unit: String, note: String = "") {
    report(name, String(format: "%12.1f %@", value, unit) + (note.isEmpty ? "" : "  " + note))
  }

  /// Prints a line: the case name, padded, then its figure.
  func report(_ name: String, _ figure: String) {
    Benchmarks.report(name, figure)
  }

  /// Prints the median and the 99th percentile of latencies in microseconds, with their count
  /// (`what` names the samples: "arrivals", or empty).
  func reportLatencies(_ name: String, _ samples: [Double], of what: String = "") {
    guard !samples.isEmpty else { return }
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    let count = what.isEmpty ? "\(sorted.count)" : "\(sorted.count) \(what)"
    report(name + " (median / p99 over \(count))", String(format: "%.0f / %.0f µs", median, p99))
  }

  /// Prints a ratio between two measured figures and whether it meets its goal.
  func reportRatio(_ name: String, _ value: Double, _ floor: Double, goal: Double) {
    guard value.isFinite, floor.isFinite, floor > 0 else { return }
    let ratio = value / floor
    let note = ratio <= goal ? "(goal <= \(goal): met)" : "(goal <= \(goal): NOT met)"
    report(name, String(format: "%12.2f x  ", ratio) + note)
  }
}

/// Prints one line of the benchmark report: the case name, padded, then its figure.
func report(_ name: String, _ figure: String) {
  print(name.padding(toLength: max(name.count, 68), withPad: " ", startingAt: 0) + " " + figure)
}

/// The resident memory of the process in bytes, from `/proc/self/statm` (Linux); nil elsewhere.
func residentBytes() -> Int? {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return nil
  }
  let fields = statm.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
