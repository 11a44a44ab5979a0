import Streams

/// Benchmarks of the timed and combining operators, in ns per element.
///
/// `measure(name, elements, body)` times `body`, which pushes `elements` elements through the
/// chain under test, and reports the time per element.
enum StreamsSchedulerBenchmarks {
  static func run(_ harness: BenchmarkHarness) {
    let elements = harness.scaled(200_000)
    let measure = { (name: String, operations: Int, body: () -> Void) in
      _ = harness.measureBatch(name, operations: operations, body)
    }

    measure("streams: baseline: subject to sink", elements) {
      let subject = PassthroughSubject<Int, Never>()
      var sum = 0
      let cancellable = subject.sink { sum &+= $0 }
      for value in 0..<elements { subject.send(value) }
      cancellable.cancel()
      precondition(sum > 0)
    }

    measure("streams: debounce on ImmediateScheduler", elements) {
      let subject = PassthroughSubject<Int, Never>()
      var sum = 0
      let cancellable = subject.debounce(for: .seconds(1), scheduler: ImmediateScheduler.shared)
        .sink { sum &+= $0 }
      for value in 0..<elements { subject.send(value) }
      cancellable.cancel()
      precondition(sum > 0)
    }

    measure("streams: merge of 2 subjects", elements) {
      let left = PassthroughSubject<Int, Never>()
      let right = PassthroughSubject<Int, Never>()
      var count = 0
      let cancellable = left.merge(with: right).sink { _ in count += 1 }
      for value in 0..<(elements / 2) {
        left.send(value)
        right.send(value)
      }
      cancellable.cancel()
      precondition(count == elements)
    }

    measure("streams: combineLatest of 2", elements) {
      let left = PassthroughSubject<Int, Never>()
      let right = PassthroughSubject<Int, Never>()
      var sum = 0
      let cancellable = left.combineLatest(right).sink { sum &+= $0.0 &+ $0.1 }
      for value in 0..<(elements / 2) {
        left.send(value)
        right.send(value)
      }
      cancellable.cancel()
      precondition(sum > 0)
    }

    let inners = 1_000
    let perInner = 100
    measure("streams: flatMap of 1,000 inner publishers (100 values each)", inners * perInner) {
      var count = 0
      let cancellable = (0..<inners).publisher
        .flatMap { _ in (0..<perInner).publisher }
        .sink { _ in count += 1 }
      cancellable.cancel()
      precondition(count == inners * perInner)
    }
  }
}
