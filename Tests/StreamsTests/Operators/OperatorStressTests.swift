import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct OperatorStressTests {
  typealias Chain = @Sendable (PassthroughSubject<Int, Never>) -> AnyPublisher<Int, any Error>

  /// One chain per kind of inner: stateless, filtering, reducing, replacing, relaying, observing.
  static let chains: [Chain] = [
    {
      $0.map { $0 * 2 }.filter { $0 % 3 != 0 }.compactMap { $0 }.setFailureType(
        to: (any Error).self
      ).eraseToAnyPublisher()
    },
    { $0.tryMap { $0 + 1 }.tryFilter { $0 > 0 }.scan(0, &+).eraseToAnyPublisher() },
    {
      $0.removeDuplicates().dropFirst(3).prefix(400).drop { $0 < 0 }.setFailureType(
        to: (any Error).self
      ).eraseToAnyPublisher()
    },
    {
      $0.collect(4).map(\.count).prefix { $0 > 0 }.setFailureType(to: (any Error).self)
        .eraseToAnyPublisher()
    },
    {
      $0.handleEvents(receiveOutput: { _ in }).replaceEmpty(with: 0).setFailureType(
        to: (any Error).self
      ).eraseToAnyPublisher()
    },
    { $0.prefix(150).append(1, 2, 3).setFailureType(to: (any Error).self).eraseToAnyPublisher() },
    { $0.count().setFailureType(to: (any Error).self).eraseToAnyPublisher() },
    {
      $0.setFailureType(to: TestError.self).tryMap { $0 }.catch { _ in Just(0) }.setFailureType(
        to: (any Error).self
      ).eraseToAnyPublisher()
    },
    { $0.first { $0 > 100 }.setFailureType(to: (any Error).self).eraseToAnyPublisher() },
    { $0.tryReduce(0) { $0 &+ $1 }.eraseToAnyPublisher() },
  ]

  @Test func concurrentSendsJoinsAndCancelsNeverBreakTheContract() {
    let subject = PassthroughSubject<Int, Never>()
    let registry = Registry()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for step in 0..<400 {
        if step % 20 == 0 {
          let chain = Self.chains[(thread + step / 20) % Self.chains.count]
          let recorder =
            step % 40 == 0
            ? RecordingSubscriber<Int, any Error>(initialDemand: .max(1), demandPerValue: .max(1))
            : RecordingSubscriber<Int, any Error>(initialDemand: .max(3))
          registry.add(recorder)
          chain(subject).subscribe(recorder)
        }
        if step % 30 == 7 {
          registry.any(seed: thread &+ step)?.cancel()
        }
        if step % 10 == 3 {
          registry.any(seed: thread &* 31 &+ step)?.request(.max(2))
        }
        subject.send(thread * 1000 + step)
      }
    }
    subject.send(completion: .finished)
    let recorders = registry.all
    #expect(recorders.count == 8 * 20)
    #expect(recorders.allSatisfy { $0.violations.isEmpty })
    #expect(recorders.contains { !$0.values.isEmpty })
  }

  @Test func resultIsDeliveredExactlyOnceWhenCompletionRacesWithDemand() {
    for round in 0..<200 {
      let upstream = ManualPublisher<Int, TestError>()
      let reduced = RecordingSubscriber<Int, TestError>(initialDemand: .none)
      let replaced = RecordingSubscriber<Int, Never>(initialDemand: .none)
      upstream.reduce(0, +).subscribe(reduced)
      upstream.send(round)
      upstream.replaceError(with: -1).subscribe(replaced)
      DispatchQueue.concurrentPerform(iterations: 3) { worker in
        switch worker {
        case 0: upstream.send(completion: .failure(TestError(code: round)))
        case 1: reduced.request(.max(1))
        default: replaced.request(.max(1))
        }
      }
      #expect(reduced.values.isEmpty)
      #expect(reduced.ending == .failed("TestError(\(round))"))
      #expect(replaced.values == [-1])
      #expect(replaced.ending == .finished)
    }
  }

  @Test func finishedReductionRacingWithDemandDeliversOnce() {
    for round in 0..<200 {
      let upstream = ManualPublisher<Int, Never>()
      let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
      upstream.reduce(0, +).subscribe(recorder)
      upstream.send(round)
      DispatchQueue.concurrentPerform(iterations: 2) { worker in
        if worker == 0 {
          upstream.send(completion: .finished)
        } else {
          recorder.request(.max(1))
        }
      }
      #expect(recorder.values == [round])
      #expect(recorder.ending == .finished)
      #expect(recorder.violations.isEmpty)
    }
  }

  /// The recorders created by the threads, behind a lock.
  final class Registry: @unchecked Sendable {
    private let lock = NSLock()
    // Protected by `lock`.
    private var recorders: [RecordingSubscriber<Int, any Error>] = []

    func add(_ recorder: RecordingSubscriber<Int, any Error>) {
      lock.withLock { recorders.append(recorder) }
    }

    func any(seed: Int) -> RecordingSubscriber<Int, any Error>? {
      lock.withLock { recorders.isEmpty ? nil : recorders[abs(seed) % recorders.count] }
    }

    var all: [RecordingSubscriber<Int, any Error>] { lock.withLock { recorders } }
  }
}
