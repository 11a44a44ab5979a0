import Datasync
import Dispatch
import Foundation

/// The connection cases of `datasync-bench`: latency compensation and offline replay on the
/// embedded back end.
enum DatasyncConnectionBenchmarks {
  /// Runs the cases; returns what they wrote, to keep alive until the end of the run, so that
  /// memory cases measured later get fresh pages (run it before them, after the cases whose
  /// freed memory it would otherwise reuse).
  static func run(_ harness: BenchmarkHarness) -> [AnyObject] {
    var kept: [AnyObject] = []
    offlineReplay(harness, keeping: &kept)
    roundTrip(harness)
    return kept
  }

  /// Waits for a signal, failing loudly rather than hanging.
  private static func waitOrFail(_ semaphore: DispatchSemaphore, _ what: String) {
    guard semaphore.wait(timeout: .now() + 600) == .success else {
      fatalError("benchmark timed out waiting for \(what)")
    }
  }

  private static func makeService(_ database: DatasyncDatabase = DatasyncDatabase())
    -> DatasyncService
  {
    WebcomApplication(
      configuration: WebcomConfiguration(identifier: "bench", backEnd: .embedded(database))
    ).datasyncService
  }

  /// One write at a time: the local event (unacknowledged) then the acknowledgement event.
  private static func roundTrip(_ harness: BenchmarkHarness) {
    let name = "datasync connection: write -> local event -> ack round trip"
    guard harness.includes(name) else { return }
    let queue = DispatchQueue(label: "bench.round-trip")
    let node = makeService().createManager().node(for: "bench/round-trip")!
    let local = DispatchSemaphore(value: 0)
    let acknowledged = DispatchSemaphore(value: 0)
    let subscription = node.subscribe(
      to: .value(change: true, acknowledgement: true), stores: false, queue: queue,
      onEvent: { event in
        if event.eventType == .valueAcknowledgement {
          acknowledged.signal()
        } else if !event.acked {
          local.signal()
        }
      })
    node.set(0, queue: queue)
    waitOrFail(local, "the first local event")
    waitOrFail(acknowledged, "the first acknowledgement")
    var value = 0
    let writes = harness.scaled(5_000)
    var bestToLocalEvent = Double.infinity
    let roundTrip = harness.measureCrossThreadBatch(name, operations: writes) {
      var toLocalEvent: UInt64 = 0
      for _ in 0..<writes {
        value += 1
        let start = DispatchTime.now().uptimeNanoseconds
        node.set(value, queue: queue)
        waitOrFail(local, "the local event")
        toLocalEvent += DispatchTime.now().uptimeNanoseconds - start
        waitOrFail(acknowledged, "the acknowledgement")
      }
      bestToLocalEvent = min(bestToLocalEvent, Double(toLocalEvent) / Double(writes))
    }
    harness.report(
      "datasync connection: write -> local event (part of the round trip)",
      value: bestToLocalEvent, unit: "ns/op")
    withExtendedLifetime(subscription) {}
    // The floor of both, in the same run: the hand-off of one block to a queue and the wake-up
    // of the waiting thread, which an idle machine makes slow (its cores sleep).
    let floor = queueHop(harness, writes)
    for (name, value) in [
      ("write -> local event / one queue hop", bestToLocalEvent),
      ("write -> local event -> ack round trip / one queue hop", roundTrip),
    ] where floor.isFinite && value.isFinite {
      harness.report(
        "datasync connection: \(name)", String(format: "%12.2f x", value / floor))
    }
  }

  /// One block handed to a queue that signals the waiting thread, best of three rounds.
  private static func queueHop(_ harness: BenchmarkHarness, _ hops: Int) -> Double {
    let queue = DispatchQueue(label: "bench.hop")
    let arrived = DispatchSemaphore(value: 0)
    var best = Double.infinity
    for _ in 0..<3 {
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<hops {
        queue.async { arrived.signal() }
        waitOrFail(arrived, "the hop")
      }
      best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(hops))
    }
    harness.report(
      "datasync connection: floor: one queue hop and the wake-up back", value: best, unit: "ns/op")
    return best
  }

  /// 10,000 writes made offline (applied locally, queued), then sent on reconnection until the
  /// back end acknowledged them all; best of three rounds, memory of the first. The data of every
  /// round is kept in `kept`.
  private static func offlineReplay(_ harness: BenchmarkHarness, keeping kept: inout [AnyObject]) {
    let name = "datasync connection: 10,000 offline writes replayed on reconnection"
    guard harness.includes(name) else { return }
    let writes = harness.scaled(10_000)
    var bestOffline = Double.infinity
    var bestReplay = Double.infinity
    var bytesPerWrite: Double?
    for round in 0..<3 {
      let queue = DispatchQueue(label: "bench.offline")
      let service = makeService()
      let list = service.createManager().node(for: "bench/offline")!
      let loaded = DispatchSemaphore(value: 0)
      let subscription = list.subscribe(
        to: .valueChange, stores: false, queue: queue, onEvent: { _ in loaded.signal() })
      waitOrFail(loaded, "the replay")
      let answered = DispatchSemaphore(value: 0)
      service.isConnectionEnabled = false
      let before = residentBytes()
      let start = DispatchTime.now().uptimeNanoseconds
      for index in 0..<writes {
        list.push(index, queue: queue) { _ in answered.signal() }
      }
      let offline = DispatchTime.now().uptimeNanoseconds
      if round == 0, let before, let after = residentBytes() {
        bytesPerWrite = Double(after - before) / Double(writes)
      }
      service.isConnectionEnabled = true
      for _ in 0..<writes { waitOrFail(answered, "the acknowledgements") }
      let replayed = DispatchTime.now().uptimeNanoseconds
      bestOffline = min(bestOffline, Double(offline - start) / Double(writes))
      bestReplay = min(bestReplay, Double(replayed - offline) / 1e6)
      kept.append(list)
      if let subscription { kept.append(subscription) }
    }
    harness.report(name + ": offline write", value: bestOffline, unit: "ns/op")
    harness.report(name + ": replay until all acked", value: bestReplay, unit: "ms")
    if let bytesPerWrite {
      harness.report(
        name + ": resident bytes per queued write", value: bytesPerWrite, unit: "bytes")
    }
  }
}
