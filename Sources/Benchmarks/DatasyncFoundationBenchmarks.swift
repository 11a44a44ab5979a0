import Datasync
import Foundation

/// The benchmark cases of the Datasync foundations (paths, keys, push identifiers, values).
enum DatasyncFoundationBenchmarks {
  /// A struct of 10 fields, as an application would store.
  private struct Profile: Codable {
    var name = "Ada Lovelace"
    var email = "ada@example.com"
    var age = 36
    var height = 1.65
    var isAdmin = true
    var city = "London"
    var score: Int64 = 1_234_567
    var ratio = 0.25
    var nickname: String? = "Countess"
    var tags = ["math", "engines"]
  }

  /// Runs the cases `harness` includes; the objects of the object cases (up to 1M children) are
  /// built only for a case that runs.
  static func run(_ harness: BenchmarkHarness) {
    func measure(_ name: String, _ iterations: Int, _ body: () -> Void) {
      harness.measure(name, iterations: iterations, body)
    }
    let path = "/rooms/general/messages/-NxYzAbCdEfGhIjKlMnO/text"
    measure("foundations: parse a 5-segment path", 200_000) {
      blackHole(try? BenchmarkEntryPoints.parsePath(path))
    }

    let keys: [WebcomKey] = [
      "0", "17", "0017", "-42", "1000", "aa", "b", "bb", "-NxYzAbCdEfGhIjKlMnO",
      "-NxYzAbCdEfGhIjKlMnP", "message", "messages", "user-1", "user-2", "\u{E9}t\u{E9}", "zz",
    ]
    var position = 0
    measure("foundations: compare two keys", 10_000_000) {
      position = (position &+ 5) & 15
      blackHole(keys[position] < keys[(position &+ 1) & 15])
    }
    let integers = keys.indices.map { $0 * 7 % 16 }
    measure("foundations: floor of the key case: compare two Ints the same way", 10_000_000) {
      position = (position &+ 5) & 15
      blackHole(integers[position] < integers[(position &+ 1) & 15])
    }

    let pushA: WebcomKey = "-NxYzAbCdEfGhIjKlMnO"
    let pushB: WebcomKey = "-NxYzAbCdEfGhIjKlMnP"
    measure("foundations: compare two push identifiers of one millisecond", 10_000_000) {
      blackHole(pushA < pushB)
    }

    measure("foundations: generate a push identifier", 1_000_000) {
      blackHole(BenchmarkEntryPoints.nextPushIdentifier())
    }

    let encoder = JSONEncoder()
    let profile = Profile()
    measure("foundations: floor of the encoding case: JSONEncoder.encode alone", 100_000) {
      blackHole(try? encoder.encode(profile))
    }
    measure("foundations: encode a 10-field struct to the value model", 100_000) {
      blackHole(try? BenchmarkEntryPoints.encodeToValueModel(profile, encoder: encoder))
    }

    for count in [1_000, 1_000_000] {
      let setting = "foundations: set one child of an object of \(count) children"
      let ranking = "foundations: rank of a key among \(count) children"
      guard harness.includes(setting) || harness.includes(ranking) else { continue }
      let probe = BenchmarkEntryPoints.makeObject(count: count)
      let newKey = WebcomKey("-NxYzAbCdEfGhIjKlMnO")
      measure(setting, 200_000) {
        blackHole(probe.countAfterSetting("new", for: newKey))
      }
      measure(ranking, 1_000_000) {
        blackHole(probe.rank(of: newKey))
      }
    }
  }

  /// Runs the decoding cases: `JSONDecoder` alone on the struct's JSON text (the floor) and the
  /// decode of the same struct from the value model, in alternating rounds, and their ratio.
  static func runDecoding(_ harness: BenchmarkHarness) {
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    let profile = Profile()
    guard let encoded = try? BenchmarkEntryPoints.encodedValue(profile, encoder: encoder),
      let data = try? encoder.encode(profile)
    else { return }
    let (floor, fromValueModel) = harness.measurePair(
      floor: "foundations: floor of the decoding case: JSONDecoder.decode alone",
      "foundations: decode a 10-field struct from the value model", iterations: 100_000,
      floor: { blackHole(try? decoder.decode(Profile.self, from: data)) },
      case: {
        blackHole(try? BenchmarkEntryPoints.decode(encoded, as: Profile.self, decoder: decoder))
      })
    harness.reportRatio(
      "foundations: decode from the value model / JSONDecoder alone", fromValueModel, floor,
      goal: 0.2)
  }

  /// The resident memory, in bytes per child, of an object of 1,000,000 children keyed by push
  /// identifiers with short string values, or `nil` when the resident size is unknown. Run it
  /// first: memory freed by earlier cases would be reused and hide part of the cost.
  static func residentBytesPerLeaf() -> Double? {
    let count = 1_000_000
    guard let before = residentBytes() else { return nil }
    let probe = BenchmarkEntryPoints.makeObject(count: count)
    guard let after = residentBytes() else { return nil }
    blackHole(probe.count)
    return Double(after - before) / Double(count)
  }

}

/// Accumulates hashes of benchmark results so that the optimiser cannot drop the work.
nonisolated(unsafe) private var blackHoleSink = 0

/// Consumes a value so that the optimiser keeps the computation that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
  withUnsafeBytes(of: value) { bytes in
    if let first = bytes.first { blackHoleSink &+= Int(first) }
  }
}
