import Datasync
import Dispatch
import Foundation

/// Measures `body` run `iterations` times and returns the cost of one iteration in nanoseconds.
typealias BenchmarkMeasure = (_ name: String, _ iterations: Int, _ body: () -> Void) -> Double

/// The timed Datasync engine cases of `datasync-bench`.
///
/// - Parameter measure: Runs and reports one case (name, iterations, body) without warm-up calls
///   (the bodies count their calls); returns ns per iteration.
func runDatasyncEngineBenchmarks(includes: (String) -> Bool, measure: BenchmarkMeasure) {
  if includes("datasync: leaf set + event to 1 value subscriber") {
    leafSetWithOneValueSubscriber(measure: measure)
  }
  if ["datasync: leaf set beside", "datasync: leaf set cost ratio"].contains(where: includes) {
    leafSetBesideOtherSubscriptions(measure: measure)
  }
  // Their set-ups fill large lists: skipped unless one of their cases is asked for.
  if ["datasync: push into 1000 children", "datasync: push cost ratio"].contains(where: includes) {
    pushWithLiveChildSubscription(measure: measure)
  }
  if ["datasync: value event on 1000 children", "datasync: value event cost ratio"].contains(
    where: includes)
  {
    valueEventAfterOneChildChange(measure: measure)
  }
}

/// Waits for events counted by a semaphore, failing loudly rather than hanging.
private func waitOrFail(_ semaphore: DispatchSemaphore, _ what: String) {
  guard semaphore.wait(timeout: .now() + 600) == .success else {
    fatalError("benchmark timed out waiting for \(what)")
  }
}

/// A counter of events whose owner waits for a given number.
private final class EventCounter: @unchecked Sendable {
  /// Protects `count` and `target`.
  private let lock = NSLock()
  private var count = 0
  private var target = Int.max
  let reached = DispatchSemaphore(value: 0)

  func increment() {
    let signal = lock.withLock { () -> Bool in
      count += 1
      return count == target
    }
    if signal { reached.signal() }
  }

  /// Arms the counter to signal `reached` once `total` events have arrived since its creation.
  func expect(total: Int) {
    let signal = lock.withLock { () -> Bool in
      target = total
      return count >= target
    }
    if signal { reached.signal() }
  }
}

private func makeNode(_ path: String) -> DatasyncNode {
  let application = WebcomApplication(
    configuration: WebcomConfiguration(identifier: "bench", backEnd: .embedded(DatasyncDatabase())))
  return application.datasyncService.createManager().node(for: path)!
}

private func fill(_ node: DatasyncNode, children count: Int, queue: DispatchQueue) {
  let done = DispatchSemaphore(value: 0)
  let chunk = 10_000
  for start in stride(from: 0, to: count, by: chunk) {
    var values: [String: Int] = [:]
    for index in start..<min(count, start + chunk) {
      values[String(format: "k%07d", index)] = index
    }
    node.merge(with: values, queue: queue) { _ in done.signal() }
  }
  for _ in stride(from: 0, to: count, by: chunk) { waitOrFail(done, "the fill") }
}

private func leafSetWithOneValueSubscriber(measure: BenchmarkMeasure) {
  let name = "datasync: leaf set + event to 1 value subscriber"
  let nanoseconds = leafSetCost(
    besideSubscriptions: 0, iterations: 100_000, named: name, measure: measure)
  report(name, String(format: "%10.0f sets/s", 1e9 / nanoseconds))
}

/// The cost of a leaf set and its event to 1 value subscriber while the client also has
/// `others` value subscriptions on other nodes, none of which the sets touch.
private func leafSetCost(
  besideSubscriptions others: Int, iterations: Int, named name: String,
  measure: BenchmarkMeasure
) -> Double {
  let queue = DispatchQueue(label: "bench.leaf")
  let node = makeNode("bench/leaf")
  let rows = node.parent!.relativeNode(for: "rows")!
  let counter = EventCounter()
  var subscriptions = (0..<others).map { index in
    rows.relativeNode(for: String(format: "r%05d", index))!.subscribe(
      to: .valueChange, stores: false, queue: queue, onEvent: { _ in counter.increment() })
  }
  subscriptions.append(
    node.subscribe(
      to: .valueChange, stores: false, queue: queue, onEvent: { _ in counter.increment() }))
  counter.expect(total: others + 1)
  waitOrFail(counter.reached, "the replays")
  var value = 0
  let nanoseconds = measure(name, iterations) {
    value += 1
    node.set(value, queue: queue)
    if value == iterations {
      counter.expect(total: others + 1 + iterations)
      waitOrFail(counter.reached, "the events")
    }
  }
  withExtendedLifetime(subscriptions) {}
  return nanoseconds
}

/// A client's write costs the same whatever the number of its subscriptions elsewhere: it finds
/// the views it touched by path.
private func leafSetBesideOtherSubscriptions(measure: BenchmarkMeasure) {
  let costs = [0, 10_000].map { others in
    leafSetCost(
      besideSubscriptions: others, iterations: 20_000,
      named: "datasync: leaf set beside \(others) other subscribed nodes", measure: measure)
  }
  reportCostRatio(
    "datasync: leaf set cost ratio beside 10000 / 0 other subscribed nodes (goal <= 1.5)",
    large: costs[1], small: costs[0])
}

/// A node filled with `children` children and a subscription to its `eventType` events on
/// `queue` that counts them, returned once the `replayed` events of the replay have arrived.
private func filledNodeWithCountedEvents(
  _ path: String, children: Int, eventType: DatasyncEventType, replayed: Int,
  queue: DispatchQueue
) -> (node: DatasyncNode, counter: EventCounter, subscription: DatasyncSubscription?) {
  let node = makeNode(path)
  fill(node, children: children, queue: queue)
  let counter = EventCounter()
  let subscription = node.subscribe(
    to: eventType, stores: false, queue: queue, onEvent: { _ in counter.increment() })
  counter.expect(total: replayed)
  waitOrFail(counter.reached, "the replay")
  return (node, counter, subscription)
}

private func pushCost(children: Int, measure: BenchmarkMeasure) -> Double {
  let queue = DispatchQueue(label: "bench.push")
  let (node, counter, subscription) = filledNodeWithCountedEvents(
    "bench/list", children: children, eventType: .childAddition, replayed: children,
    queue: queue)
  let iterations = 20_000
  var pushed = 0
  let nanoseconds = measure(
    "datasync: push into \(children) children, live child subscription", iterations
  ) {
    pushed += 1
    node.push(pushed, queue: queue)
    if pushed == iterations {
      counter.expect(total: children + iterations)
      waitOrFail(counter.reached, "the additions")
    }
  }
  withExtendedLifetime(subscription) {}
  return nanoseconds
}

/// Reports the ratio of a case's cost at a large size to its cost at a small one.
private func reportCostRatio(_ name: String, large: Double, small: Double) {
  report(name, String(format: "%10.2f", large / small))
}

private func pushWithLiveChildSubscription(measure: BenchmarkMeasure) {
  let small = pushCost(children: 1_000, measure: measure)
  reportCostRatio(
    "datasync: push cost ratio 1M / 1k children (goal <= 3)",
    large: pushCost(children: 1_000_000, measure: measure), small: small)
}

private func valueEventCost(children: Int, measure: BenchmarkMeasure) -> Double {
  let queue = DispatchQueue(label: "bench.value")
  let (node, counter, subscription) = filledNodeWithCountedEvents(
    "bench/map", children: children, eventType: .valueChange, replayed: 1, queue: queue)
  let child = node.relativeNode(for: "k0000500")!
  var value = 0
  let nanoseconds = measure(
    "datasync: value event on \(children) children after 1 child change", 10_000
  ) {
    value += 1
    counter.expect(total: 1 + value)
    child.set(value, queue: queue)
    waitOrFail(counter.reached, "the value event")
  }
  withExtendedLifetime(subscription) {}
  return nanoseconds
}

private func valueEventAfterOneChildChange(measure: BenchmarkMeasure) {
  let small = valueEventCost(children: 1_000, measure: measure)
  reportCostRatio(
    "datasync: value event cost ratio 100k / 1k children (goal <= 3)",
    large: valueEventCost(children: 100_000, measure: measure), small: small)
}

/// Measures the resident bytes per stored leaf of a database holding 1,000,000 leaves (written
/// by a client whose cache shares the data) and prints the figure.
///
/// Run it before the other cases (freed memory would be reused) and keep the returned node alive
/// until the end, so that later memory cases also get fresh pages.
///
/// - Returns: The node holding the data.
func measureDatasyncEngineResidentBytesPerLeaf() -> DatasyncNode? {
  let leaves = 1_000_000
  let queue = DispatchQueue(label: "bench.memory")
  guard let before = residentBytes() else {
    print("datasync: resident bytes per leaf: not measurable on this platform")
    return nil
  }
  let node = makeNode("bench/memory")
  let done = DispatchSemaphore(value: 0)
  let groups = 1_000
  for group in 0..<groups {
    var values: [String: Int] = [:]
    for index in 0..<(leaves / groups) {
      values[String(format: "k%04d", index)] = group * 1_000 + index
    }
    node.relativeNode(for: String(format: "g%04d", group))!.set(values, queue: queue) { _ in
      done.signal()
    }
  }
  for _ in 0..<groups { waitOrFail(done, "the writes") }
  let after = residentBytes() ?? before
  report(
    "datasync: resident bytes per stored leaf at 1M leaves (goal <= 300)",
    String(format: "%10.1f bytes", Double(after - before) / Double(leaves)))
  return node
}
