import Foundation
import Testing

@testable import Datasync

/// Delivery in batches per queue: callback subscriptions keep every event, in order, however far
/// behind their queue is, and work enqueued after a write still runs after its events.
@Suite(.timeLimit(.minutes(1))) struct DeliveryMailboxTests {
  @Test func aBlockedQueueGetsEveryEventInOrderOnceReleased() throws {
    let queue = DispatchQueue(label: "test.mailbox.blocked")
    let manager = makeApplication().datasyncService.createManager()
    let list = try manager.nodeThrows(for: "list")
    try waitForResult { list.set(["k000": 0], queue: $0, then: $1) }
    let additions = EventRecorder()
    let values = EventRecorder()
    let childSubscription = list.subscribe(
      to: .childAddition, stores: false, queue: queue, onEvent: additions.record)
    let valueSubscription = list.subscribe(
      to: .valueChange, stores: false, queue: queue, onEvent: values.record)
    #expect(values.wait(forCount: 1))

    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    let writes = 200
    for index in 1...writes {
      list.relativeNode(for: String(format: "k%03d", index))!.set(index, queue: queue)
    }
    release.signal()

    #expect(additions.wait(forCount: 1 + writes))
    #expect(values.wait(forCount: 1 + writes))
    let keys = additions.recorded.map(\.key.value)
    #expect(keys == (0...writes).map { String(format: "k%03d", $0) })
    #expect(values.recorded.map { $0.value.asDictionary()?.count ?? 0 } == Array(1...(1 + writes)))
    withExtendedLifetime((childSubscription, valueSubscription)) {}
  }

  @Test func workEnqueuedAfterAWriteRunsAfterItsEvents() throws {
    let queue = DispatchQueue(label: "test.mailbox.barrier")
    let manager = makeApplication().datasyncService.createManager()
    let counter = try manager.nodeThrows(for: "counter")
    let events = EventRecorder()
    let subscription = counter.subscribe(
      to: .valueChange, stores: false, queue: queue, onEvent: events.record)
    #expect(events.wait(forCount: 1))
    for value in 1...50 {
      counter.set(value, queue: queue)
      let seen = queue.sync { events.recorded.last?.value.asInt }
      #expect(seen == value)
    }
    withExtendedLifetime(subscription) {}
  }

  @Test func aWriteReachesSubscriptionsOnSeveralQueuesEachBeforeLaterWorkThere() throws {
    let queues = (0..<3).map { DispatchQueue(label: "test.mailbox.fan-out.\($0)") }
    let manager = makeApplication().datasyncService.createManager()
    let counter = try manager.nodeThrows(for: "counter")
    // Two subscriptions on the first queue, one on each other: one write makes one batch per
    // queue, the first holding two parcels.
    let recorders = (0..<4).map { _ in EventRecorder() }
    let subscriptions = zip([0, 0, 1, 2], recorders).map { index, recorder in
      counter.subscribe(
        to: .valueChange, stores: false, queue: queues[index], onEvent: recorder.record)
    }
    for recorder in recorders { #expect(recorder.wait(forCount: 1)) }
    for value in 1...30 {
      counter.set(value, queue: queues[0])
      let seen = zip([0, 0, 1, 2], recorders).map { index, recorder in
        queues[index].sync { recorder.recorded.last?.value.asInt }
      }
      #expect(seen == [value, value, value, value])
    }
    #expect(recorders.map(\.recorded.count) == [31, 31, 31, 31])
    withExtendedLifetime(subscriptions) {}
  }

  @Test func anAnswerComesAfterTheEventsOfItsWriteOnTheSameQueue() throws {
    let queue = DispatchQueue(label: "test.mailbox.answer")
    let manager = makeApplication().datasyncService.createManager()
    let node = try manager.nodeThrows(for: "answered")
    let order = Shared<[String]>([])
    let subscription = node.subscribe(
      to: .value(change: true, acknowledgement: true), stores: false, queue: queue,
      onEvent: { event in
        order.update { $0.append(event.eventType == .valueChange ? "change" : "ack") }
      })
    let answered = DispatchSemaphore(value: 0)
    queue.sync {}
    order.update { $0.removeAll() }
    node.set(1, queue: queue) { _ in
      order.update { $0.append("answer") }
      answered.signal()
    }
    #expect(answered.wait(timeout: .now() + 10) == .success)
    queue.sync {}
    #expect(order.current.last == "answer")
    #expect(order.current.contains("change"))
    withExtendedLifetime(subscription) {}
  }

  @Test func everySubscriptionOfAQueueIsToldOnceThatItsDeliveryEnded() throws {
    let queue = DispatchQueue(label: "test.mailbox.delivery-end")
    let manager = makeApplication().datasyncService.createManager()
    let node = try manager.nodeThrows(for: "ends")
    try waitForResult { node.set(0, queue: $0, then: $1) }
    // More subscriptions than a drain searches linearly for the ones it served.
    let count = 20
    let log = Shared<[String]>([])
    let subscriptions = try (0..<count).map { index in
      try node.subscribeThrows(
        to: .valueChange, childrenConstraint: .all, stores: false, queue: queue, conflation: .none,
        onEvent: { _ in log.update { $0.append("event \(index)") } },
        onDeliveryEnd: { log.update { $0.append("end \(index)") } }, onCompletion: nil)
    }
    let deadline = Date().addingTimeInterval(10)
    while log.current.filter({ $0.hasPrefix("end") }).count < count && Date() < deadline {
      queue.sync {}
    }
    queue.sync { log.update { $0.removeAll() } }

    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    let writes = 3
    for value in 1...writes { node.set(value, queue: queue) }
    release.signal()
    queue.sync {}

    // One drain: every write's events, then each subscription told once, in the order in which
    // it got its first event.
    let entries = log.current
    let events = entries.prefix { $0.hasPrefix("event") }
    let ends = entries.dropFirst(events.count)
    #expect(events.count == writes * count)
    #expect(Set(events) == Set((0..<count).map { "event \($0)" }))
    #expect(ends.count == count)
    #expect(
      Array(ends) == events.prefix(count).map { $0.replacingOccurrences(of: "event", with: "end") })
    withExtendedLifetime(subscriptions) {}
  }

  @Test func parcelsPostedWhileADrainDeliversAreDeliveredByItInOrder() throws {
    let queue = DispatchQueue(label: "test.mailbox.running-drain")
    let mailbox = DeliveryMailbox(queue: queue)
    let log = Shared<[String]>([])
    let made = Shared<MailboxProbe?>(nil)
    let probe = try MailboxProbe(queue: queue) { poster, sequence in
      log.update { $0.append("event \(sequence)") }
      guard sequence == 0, let probe = made.current else { return }
      // Enqueued before the posts below: a drain that takes them delivers them first.
      queue.async { log.update { $0.append("work enqueued earlier") } }
      for next in 1...3 {
        mailbox.post([probe.parcel(poster: poster, sequence: next)])
        mailbox.kick()
      }
    }
    made.update { $0 = probe }
    mailbox.post([probe.parcel(poster: 0, sequence: 0)])
    mailbox.kick()
    queue.sync {}
    queue.sync {}
    #expect(
      log.current == ["event 0", "event 1", "event 2", "event 3", "work enqueued earlier"])
    withExtendedLifetime(probe) {}
  }

  @Test func everyParcelOfRacingPostersIsDeliveredOnceInOrderBeforeLaterWork() throws {
    let queue = DispatchQueue(label: "test.mailbox.racing-posters")
    // Drains hand over to a successor after 20 us, so posts race that too.
    let mailbox = DeliveryMailbox(queue: queue, roundsLimit: 20_000)
    let posters = 4
    let postsPerPoster = 2_000
    let delivered = Shared<[[Int]]>(Array(repeating: [], count: posters))
    let lateWork = Shared<Int>(0)
    let probe = try MailboxProbe(queue: queue) { poster, sequence in
      delivered.update { $0[poster].append(sequence) }
    }
    DispatchQueue.concurrentPerform(iterations: posters) { poster in
      for sequence in 0..<postsPerPoster {
        mailbox.post([probe.parcel(poster: poster, sequence: sequence)])
        mailbox.kick()
        // Work enqueued after a post and its kick runs after that parcel's event.
        queue.async {
          if delivered.current[poster].count <= sequence { lateWork.update { $0 += 1 } }
        }
        // Now and then the poster waits (bounded) until the mailbox is idle, so that its next
        // kick enqueues a drain, racing the kicks of the other posters.
        if sequence % 2 == poster % 2 {
          var yields = 0
          while !mailbox.isIdle && yields < 1_000_000 {
            sched_yield()
            yields += 1
          }
        }
      }
    }
    queue.sync {}
    #expect(lateWork.current == 0)
    #expect(delivered.current == Array(repeating: Array(0..<postsPerPoster), count: posters))
    withExtendedLifetime(probe) {}
  }
}

/// A subscription that receives parcels made by a test and posted to a mailbox of the test: each
/// parcel holds one record, naming its poster and its rank among that poster's parcels.
private final class MailboxProbe: Sendable {
  private let subscription: DatasyncSubscription

  /// A probe whose events, delivered on `queue`, are passed to `onParcel`; the parcels it makes
  /// can be told apart from the events of its node.
  init(
    queue: DispatchQueue,
    onParcel: @escaping @Sendable (_ poster: Int, _ sequence: Int) -> Void
  ) throws {
    let manager = makeApplication().datasyncService.createManager()
    subscription = try manager.nodeThrows(for: "probe").subscribeThrows(
      to: .valueChange, childrenConstraint: .all, stores: false, queue: queue, conflation: .none,
      onEvent: { event in
        guard event.key.value.hasPrefix("poster-"), let sequence = event.value.asInt else {
          return
        }
        onParcel(Int(event.key.value.dropFirst("poster-".count))!, sequence)
      },
      onDeliveryEnd: nil, onCompletion: nil)
  }

  /// A parcel of one value event for the probe.
  func parcel(poster: Int, sequence: Int) -> DeliveryMailbox.Parcel {
    let record = EventRecord(
      eventType: .valueChange, path: DatasyncPath(validatedKeys: [WebcomKey("poster-\(poster)")]),
      value: .int(Int64(sequence)), previousKey: nil, acked: false)
    return DeliveryMailbox.Parcel(subscription: subscription.core, records: [record])
  }
}
