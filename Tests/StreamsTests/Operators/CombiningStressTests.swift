import Foundation
import Streams
import StreamsTesting
import Testing

/// Upstreams driven from several threads at once: no value beyond demand, no overlapping calls,
/// nothing lost.
@Suite struct CombiningStressTests {
  static let threads = 4
  static let perThread = 500

  @Test func mergeFromManyThreadsWithFiniteDemand() {
    let upstreams = (0..<Self.threads).map { _ in ManualPublisher<Int, Never>() }
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    Publishers.MergeMany(upstreams).subscribe(recorder)
    DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
      for value in 0..<Self.perThread { upstreams[thread].send(thread * 10_000 + value) }
      upstreams[thread].send(completion: .finished)
    }
    #expect(recorder.values.count == Self.threads * Self.perThread)
    for thread in 0..<Self.threads {
      let own = recorder.values.filter { $0 / 10_000 == thread }
      #expect(own == (0..<Self.perThread).map { thread * 10_000 + $0 })
    }
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  @Test func mergeOfSubjectsFromManyThreadsWithUnlimitedDemand() {
    let subjects = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = RecordingSubscriber<Int, Never>()
    subjects[0].merge(with: subjects[1]).subscribe(recorder)
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      for value in 0..<Self.perThread { subjects[thread].send(value) }
    }
    #expect(recorder.values.count == 2 * Self.perThread)
    #expect(recorder.violations.isEmpty)
  }

  @Test func combineLatestFromManyThreads() {
    let upstreams = (0..<Self.threads).map { _ in ManualPublisher<Int, Never>() }
    let recorder = RecordingSubscriber<[Int], Never>(
      initialDemand: .max(1), demandPerValue: .max(1))
    upstreams.combineLatest().subscribe(recorder)
    DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
      for value in 0..<Self.perThread { upstreams[thread].send(value) }
      upstreams[thread].send(completion: .finished)
    }
    #expect(recorder.values.last == Array(repeating: Self.perThread - 1, count: Self.threads))
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  @Test func zipFromManyThreads() {
    let a = ManualPublisher<Int, Never>()
    let b = ManualPublisher<Int, Never>()
    let c = ManualPublisher<Int, Never>()
    let upstreams = [a, b, c]
    let recorder = RecordingSubscriber<(Int, Int, Int), Never>(
      initialDemand: .max(2), demandPerValue: .max(1))
    a.zip(b, c).subscribe(recorder)
    DispatchQueue.concurrentPerform(iterations: 3) { thread in
      for value in 0..<Self.perThread { upstreams[thread].send(value) }
    }
    let values = recorder.values
    #expect(values.count == Self.perThread)
    #expect(values.allSatisfy { $0.0 == $0.1 && $0.1 == $0.2 })
    #expect(values.map(\.0) == Array(0..<Self.perThread))
    #expect(recorder.violations.isEmpty)
  }

  @Test func flatMapFromManyThreads() {
    let upstream = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3), demandPerValue: .max(1))
    let inners = (0..<Self.threads).map { _ in PassthroughSubject<Int, Never>() }
    upstream.flatMap { inners[$0].buffer(size: 1_000, prefetch: .keepFull, whenFull: .dropNewest) }
      .subscribe(recorder)
    for index in 0..<Self.threads { upstream.send(index) }
    DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
      for value in 0..<Self.perThread { inners[thread].send(value) }
      inners[thread].send(completion: .finished)
    }
    upstream.send(completion: .finished)
    #expect(recorder.values.count == Self.threads * Self.perThread)
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  @Test func cancelRacingWithSends() {
    for _ in 0..<50 {
      let subjects = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
      let recorder = RecordingSubscriber<(Int, Int), Never>()
      subjects[0].combineLatest(subjects[1]).subscribe(recorder)
      DispatchQueue.concurrentPerform(iterations: 3) { thread in
        if thread == 2 {
          recorder.cancel()
        } else {
          for value in 0..<20 { subjects[thread].send(value) }
        }
      }
      #expect(recorder.violations.isEmpty)
    }
  }
}
