print("datasync-bench")

StreamsCoreBenchmarks.run { name, iterations, body in
  body()
  let clock = ContinuousClock()
  var best = Duration.seconds(3600)
  for _ in 0..<3 {
    best = min(best, clock.measure(body))
  }
  let nanoseconds =
    Double(best.components.seconds) * 1e9 + Double(best.components.attoseconds) / 1e9
  let perElement = nanoseconds / Double(iterations)
  print("\(name): \((perElement * 100).rounded() / 100) ns/element")
  return perElement
}
