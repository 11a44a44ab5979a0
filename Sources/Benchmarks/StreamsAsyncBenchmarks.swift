import Streams

/// A `for await` loop over `values` of a sequence publisher vs over an `AsyncStream`.
enum StreamsAsyncBenchmarks {
  static func run(_ harness: BenchmarkHarness) async {
    let count = harness.scaled(200_000)
    let viaValues = await harness.measureAsyncBatch(
      "async: for await over (1...N).publisher.values", operations: count
    ) {
      var sum = 0
      for await value in (1...count).publisher.values { sum &+= value }
      blackHole(sum)
    }
    let viaStream = await harness.measureAsyncBatch(
      "async: for await over AsyncStream (floor)", operations: count
    ) {
      let stream = AsyncStream<Int>(bufferingPolicy: .unbounded) { continuation in
        for value in 1...count { continuation.yield(value) }
        continuation.finish()
      }
      var sum = 0
      for await value in stream { sum &+= value }
      blackHole(sum)
    }
    harness.reportRatio("async: values loop / AsyncStream loop", viaValues, viaStream, goal: 3)
    await harness.measureAsyncBatch(
      "async: buffered values of a subject (unbounded)", operations: count
    ) {
      let subject = PassthroughSubject<Int, Never>()
      var iterator = subject.values(bufferingPolicy: .unbounded).makeAsyncIterator()
      for value in 1...count { subject.send(value) }
      subject.send(completion: .finished)
      var sum = 0
      while let value = await iterator.next() { sum &+= value }
      blackHole(sum)
    }
  }
}
