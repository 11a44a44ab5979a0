print("datasync-bench")

StreamsSchedulerBenchmarks.run { name, elements, body in
  let clock = ContinuousClock()
  body()
  var best = Duration.seconds(1_000)
  for _ in 0..<5 {
    best = min(best, clock.measure(body))
  }
  let nanoseconds =
    Double(best.components.seconds) * 1e9 + Double(best.components.attoseconds) / 1e9
  print("\(name): \((nanoseconds / Double(elements) * 10).rounded() / 10) ns/element")
}
