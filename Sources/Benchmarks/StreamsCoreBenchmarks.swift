import Streams

/// The core Streams benchmarks: subjects, sequence delivery, operator chains, chain set-up.
///
/// Each case is measured by the harness's `measure` closure, which runs `body` (doing
/// `iterations` elements of work) and returns the nanoseconds per element. Work is accumulated
/// into a result handed to ``consume(_:)`` so the optimiser cannot delete it.
enum StreamsCoreBenchmarks {
  /// The number of elements each case processes per run.
  static let elements = 1_000_000

  static func run(_ harness: BenchmarkHarness) {
    let count = harness.scaled(elements)
    let measure = { (name: String, iterations: Int, body: () -> Void) -> Double in
      harness.measureBatch(name, operations: iterations, body)
    }

    _ = measure("streams: subject send -> 1 sink", count) {
      let subject = PassthroughSubject<Int, Never>()
      let total = Accumulator()
      let cancellable = subject.sink { total.value &+= $0 }
      for value in 0..<count {
        subject.send(value)
      }
      cancellable.cancel()
      consume(total.value)
    }

    _ = measure("streams: subject send -> 2 sinks", count) {
      let subject = PassthroughSubject<Int, Never>()
      let total = Accumulator()
      let first = subject.sink { total.value &+= $0 }
      let second = subject.sink { total.value &+= $0 }
      for value in 0..<count {
        subject.send(value)
      }
      first.cancel()
      second.cancel()
      consume(total.value)
    }

    _ = measure("streams: 10 x map (inlinable closures), sequence -> sink", count) {
      let total = Accumulator()
      _ = Elements(0..<count)
        .map { (value: Int) in value &+ 1 }.map { (value: Int) in value &* 3 }
        .map { (value: Int) in value &- 2 }.map { (value: Int) in value ^ 5 }
        .map { (value: Int) in value &+ 7 }.map { (value: Int) in value &* 5 }
        .map { (value: Int) in value &- 1 }.map { (value: Int) in value ^ 9 }
        .map { (value: Int) in value &+ 3 }.map { (value: Int) in value &* 7 }
        .sink { total.value &+= $0 }
      consume(total.value)
    }

    let transforms: [(Int) -> Int] = [
      { $0 &+ 1 }, { $0 &* 3 }, { $0 &- 2 }, { $0 ^ 5 }, { $0 &+ 7 },
      { $0 &* 5 }, { $0 &- 1 }, { $0 ^ 9 }, { $0 &+ 3 }, { $0 &* 7 },
    ]
    let handWritten = measure("streams: hand-written loop through 10 opaque closures", count) {
      var total = 0
      for value in 0..<count {
        var current = value
        for transform in opaque(transforms) {
          current = transform(current)
        }
        total &+= current
      }
      consume(total)
    }
    // The same ten closures, hidden from the optimiser as in the loop, so that the ratio measures
    // what the operators add.
    let chained = measure("streams: 10 x map (the loop's opaque closures), sequence -> sink", count)
    {
      let total = Accumulator()
      let step = opaque(transforms)
      _ = Elements(0..<count)
        .map(step[0]).map(step[1]).map(step[2]).map(step[3]).map(step[4])
        .map(step[5]).map(step[6]).map(step[7]).map(step[8]).map(step[9])
        .sink { total.value &+= $0 }
      consume(total.value)
    }
    harness.reportRatio(
      "streams: 10 x map / hand-written loop (same closures)", chained, handWritten, goal: 3)

    _ = measure("streams: 6 x (map + filter), sequence -> sink", count) {
      let total = Accumulator()
      let half = Elements(0..<count)
        .map { (value: Int) in value &+ 1 }.filter { (value: Int) in value != -1 }
        .map { (value: Int) in value &* 3 }.filter { (value: Int) in value != -2 }
        .map { (value: Int) in value &- 2 }.filter { (value: Int) in value != -3 }
      _ =
        half
        .map { (value: Int) in value ^ 5 }.filter { (value: Int) in value != -4 }
        .map { (value: Int) in value &+ 7 }.filter { (value: Int) in value != -5 }
        .map { (value: Int) in value &* 5 }.filter { (value: Int) in value != -6 }
        .sink { total.value &+= $0 }
      consume(total.value)
    }

    // The subject-driven chains of the table: each value is sent through the chain, with
    // closures the optimiser cannot see into, as an app's closures would be.
    _ = measure("streams: 10 x map (opaque closures), subject -> sink", count) {
      let subject = PassthroughSubject<Int, Never>()
      let total = Accumulator()
      let step = opaque(transforms)
      let cancellable =
        subject
        .map(step[0]).map(step[1]).map(step[2]).map(step[3]).map(step[4])
        .map(step[5]).map(step[6]).map(step[7]).map(step[8]).map(step[9])
        .sink { total.value &+= $0 }
      for value in 0..<count {
        subject.send(value)
      }
      cancellable.cancel()
      consume(total.value)
    }

    let predicates: [(Int) -> Bool] = [
      { $0 != -1 }, { $0 != -2 }, { $0 != -3 }, { $0 != -4 }, { $0 != -5 }, { $0 != -6 },
    ]
    _ = measure("streams: 6 x (map + filter) (opaque closures), subject -> sink", count) {
      let subject = PassthroughSubject<Int, Never>()
      let total = Accumulator()
      let step = opaque(transforms)
      let keep = opaque(predicates)
      let cancellable =
        subject
        .map(step[0]).filter(keep[0]).map(step[1]).filter(keep[1])
        .map(step[2]).filter(keep[2]).map(step[3]).filter(keep[3])
        .map(step[4]).filter(keep[4]).map(step[5]).filter(keep[5])
        .sink { total.value &+= $0 }
      for value in 0..<count {
        subject.send(value)
      }
      cancellable.cancel()
      consume(total.value)
    }

    _ = measure("streams: (1...N).publisher -> sink", count) {
      let total = Accumulator()
      _ = (1...count).publisher.sink { total.value &+= $0 }
      consume(total.value)
    }

    let setups = harness.scaled(100_000)
    _ = measure("streams: set up, run and cancel a 12-operator chain (per chain)", setups) {
      let subject = PassthroughSubject<Int, Never>()
      let total = Accumulator()
      for _ in 0..<setups {
        let head =
          subject
          .map { (value: Int) in value &+ 1 }.filter { (value: Int) in value > 0 }
          .compactMap { (value: Int) -> Int? in value }.removeDuplicates()
          .scan(0) { (sum: Int, value: Int) in sum &+ value }.dropFirst()
        let cancellable =
          head
          .prefix(1_000).tryMap { (value: Int) in value }.replaceError(with: 0)
          .handleEvents().drop { (value: Int) in value < 0 }.map { (value: Int) in value &* 2 }
          .sink { total.value &+= $0 }
        subject.send(1)
        cancellable.cancel()
      }
      consume(total.value)
    }

    // The same operators again and again, as app code chains them: the set-up must stay
    // specialised however often an operator recurs in one chain.
    _ = measure(
      "streams: set up, run and cancel a 10-operator chain repeating operators (per chain)", setups
    ) {
      let subject = PassthroughSubject<Int, Never>()
      let total = Accumulator()
      let increment = { (value: Int) in value &+ 1 }
      let isPositive = { (value: Int) in value > 0 }
      for _ in 0..<setups {
        let cancellable =
          subject
          .removeDuplicates().map(increment).filter(isPositive)
          .removeDuplicates().map(increment).filter(isPositive)
          .removeDuplicates().map(increment).filter(isPositive)
          .removeDuplicates()
          .sink { total.value &+= $0 }
        subject.send(1)
        cancellable.cancel()
      }
      consume(total.value)
    }

    _ = measure("streams: Just(x).map.sink, set up and run (per chain)", setups) {
      let total = Accumulator()
      let step = opaque(transforms)
      for value in 0..<setups {
        _ = Just(value).map(step[0]).sink { total.value &+= $0 }
      }
      consume(total.value)
    }
  }

  /// The elements of a range, published through `Publishers.Sequence` but not typed as one.
  ///
  /// Operators on `Publishers.Sequence` itself run eagerly and return another sequence publisher,
  /// as in Combine; the chains above go through this publisher so that they measure the operators'
  /// subscriptions, element by element, over the same delivery loop.
  struct Elements: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let range: Range<Int>

    init(_ range: Range<Int>) {
      self.range = range
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
      range.publisher.receive(subscriber: subscriber)
    }
  }

  /// A running total kept by reference, so sink closures can add to it.
  final class Accumulator {
    var value = 0
  }

  /// Keeps `value` observable, so the work that produced it cannot be optimised away.
  @inline(never)
  static func consume(_ value: Int) {
    if value == 42 { print("", terminator: "") }
  }

  /// Hides `value` from the optimiser, so the closures are called rather than inlined.
  @inline(never)
  static func opaque<T>(_ value: T) -> T { value }
}
