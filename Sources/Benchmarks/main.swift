import Foundation

print("datasync-bench")

/// Runs `body` `iterations` times, prints the cost per iteration and returns it in nanoseconds.
func measure(name: String, iterations: Int, body: () -> Void) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  for _ in 0..<iterations { body() }
  let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
  let perIteration = elapsed / Double(iterations)
  print(String(format: "%@: %.0f ns/op", name, perIteration))
  return perIteration
}

runDatasyncEngineBenchmarks(measure: { measure(name: $0, iterations: $1, body: $2) })
