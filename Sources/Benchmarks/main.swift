import Foundation

/// Prints one line: the name of a case, padded, then its figure.
func report(_ name: String, _ figure: String) {
  print(name.padding(toLength: max(name.count, 72), withPad: " ", startingAt: 0) + figure)
}

/// Times `iterations` calls of `body` after a warm-up and prints nanoseconds per call.
func measure(_ name: String, _ iterations: Int, _ body: () -> Void) {
  for _ in 0..<max(1, iterations / 10) { body() }
  let clock = ContinuousClock()
  let elapsed = clock.measure {
    for _ in 0..<iterations { body() }
  }
  let nanoseconds =
    Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
  report(name, String(format: "%10.1f ns/op", nanoseconds / Double(iterations)))
}

/// Times exactly `iterations` calls of `body`, prints and returns nanoseconds per call.
func measureExactly(_ name: String, _ iterations: Int, _ body: () -> Void) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  for _ in 0..<iterations { body() }
  let nanoseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations)
  report(name, String(format: "%10.1f ns/op", nanoseconds))
  return nanoseconds
}

print("datasync-bench")
// Memory first, before other cases leave freed memory that allocations would reuse; the engine's
// data stays alive so that the next memory case gets fresh pages too.
let engineData = measureDatasyncEngineResidentBytesPerLeaf()
if let bytes = DatasyncFoundationBenchmarks.residentBytesPerLeaf() {
  report("foundations: resident bytes per leaf at 1M leaves", String(format: "%10.1f bytes", bytes))
}
DatasyncFoundationBenchmarks.run(measure)
runDatasyncEngineBenchmarks(measure: measureExactly)
withExtendedLifetime(engineData) {}
