import Foundation
import Synchronization

/// The events waiting for the subscriptions of one dispatch queue, delivered in batches: however
/// many writes and subscriptions raise events, a queue gets one `async` call until that call
/// starts, and none while its drain runs; everything posted meanwhile rides with it.
///
/// A post is followed by a ``kick()`` before the operation that posted returns to the
/// application. The mailbox is in one of three phases, changed only under its lock:
/// - idle: no drain is enqueued or running; a kick finding parcels enqueues one, under the lock,
///   and the phase becomes scheduled;
/// - scheduled: a drain is enqueued on the queue and has not started; it will take every parcel
///   posted until it starts;
/// - draining: a drain runs on the queue; it takes, round after round, every parcel posted while
///   it delivers, and ends (back to idle) only when it finds none waiting under the lock, so no
///   post is left behind.
///
/// In each phase a drain is enqueued on the queue, or running on it, that will deliver a parcel
/// posted before the kick returns, so work the application enqueues after a write still runs after
/// that write's events, as if each event had its own `async` call. Between the post and the kick,
/// the poster may post more (a write's acknowledgement), which rides in the same batch. Batches
/// are delivered in the order they were posted. After the events of each round, each
/// subscription that got some is told the round ended (``SubscriptionCore/endDelivery()``), once:
/// a subscriber that coalesces (the streams of the latest value, or of the children) emits there,
/// once for every write that waited for its queue while it was busy.
///
/// Enqueueing a drain costs a wake-up of the queue's thread (a few microseconds on the writer,
/// more before delivery). When drains are dense (the previous one ended less than ``denseGap``
/// before this one started), a drain that finds nothing waiting yields its thread
/// (`sched_yield`) and looks again, for at most ``waitLimit``, so that a writer that writes again
/// as soon as it saw its event finds the drain still running. This spends up to ``waitLimit`` of
/// CPU on the queue's thread per drain, only while drains are dense. The waiting drain watches a
/// count of posts, not the lock, so that it does not contend with the posters. After
/// ``defaultRoundsLimit``, a drain that finds parcels posted enqueues a successor (under the lock,
/// so the phase stays true), delivers those parcels itself (their kicks may have returned) and
/// returns, letting the other work of the queue run.
///
/// The events of a subscription that conflates (``SubscriptionCore/conflation``) merge, while
/// they wait, into those already waiting for it: its backlog is bounded by the data it shows, not
/// by the number of writes (see ``DeliveryConflation``).
///
/// One mailbox serves every subscription of its queue in the process; ``mailbox(for:)`` finds it.
final class DeliveryMailbox: Sendable {
  /// Events for a subscription, in order.
  struct Parcel: Sendable {
    let subscription: SubscriptionCore
    let records: [EventRecord]
  }

  /// Whether a drain is enqueued or running.
  enum Phase {
    /// No drain is enqueued or running: the next kick enqueues one.
    case idle
    /// A drain is enqueued and has not started: it takes the parcels posted until it starts.
    case scheduled
    /// A drain runs on the queue: it takes the parcels posted until it ends.
    case draining
  }

  /// What a drain does after a round.
  private enum Step {
    /// Deliver these parcels, posted while it delivered.
    case deliver([Parcel])
    /// Deliver these parcels, posted while it delivered (their kicks may have returned, so no
    /// other drain may deliver them after work enqueued since), then end: a successor is enqueued.
    case deliverLast([Parcel])
    /// Nothing waits: yield the thread until a post (the count of posts differs from `postCount`)
    /// or the end of the wait, then look again.
    case wait(postCount: UInt)
    /// The drain ends: the mailbox is idle.
    case end
  }

  /// Below this gap between the end of a drain and the start of the next, drains are dense and a
  /// drain waits for more posts before it ends.
  static let denseGap: UInt64 = 100_000
  /// How long a dense drain waits for more posts, in nanoseconds.
  static let waitLimit: UInt64 = 20_000
  /// How long a drain delivers before it hands over to a successor, in nanoseconds, by default.
  static let defaultRoundsLimit: UInt64 = 500_000

  let queue: DispatchQueue
  /// How long a drain delivers before it hands over to a successor, in nanoseconds.
  private let roundsLimit: UInt64
  private let waiting = LockedValue(Waiting())
  /// The number of posts so far (wrapping), counted under the lock, which a waiting drain watches
  /// without taking it.
  private let postCount = Atomic<UInt>(0)
  /// Whether the phase is idle, written under the lock where the phase leaves or enters idle, so
  /// that a kick finding a drain enqueued or running returns without taking the lock (see
  /// ``kick()``).
  private let isIdleWithoutLock = Atomic<Bool>(true)

  /// A mailbox for `queue`, outside the registry (``mailbox(for:)`` registers the ones it makes);
  /// tests shorten `roundsLimit` to make drains hand over often.
  init(queue: DispatchQueue, roundsLimit: UInt64 = DeliveryMailbox.defaultRoundsLimit) {
    self.queue = queue
    self.roundsLimit = roundsLimit
  }

  /// The mailboxes alive, by queue (a mailbox holds its queue, so an identifier cannot be reused
  /// while its mailbox lives).
  private static let registry = LockedValue([ObjectIdentifier: WeakMailbox]())

  /// The mailbox of `queue`, made when no subscription of the queue holds one.
  static func mailbox(for queue: DispatchQueue) -> DeliveryMailbox {
    registry.withLock { registry in
      let key = ObjectIdentifier(queue)
      if let existing = registry[key]?.mailbox { return existing }
      let made = DeliveryMailbox(queue: queue)
      registry[key] = WeakMailbox(mailbox: made)
      return made
    }
  }

  /// The mailboxes alive whose queue's label contains `text` (for tests).
  ///
  /// The weak references are taken strong after the lock is released: a mailbox whose last
  /// other owner lets go meanwhile is then released here, and its `deinit`, which takes the
  /// lock, does not run under it.
  static func mailboxes(labelled text: String) -> [DeliveryMailbox] {
    let entries = registry.withLock { Array($0.values) }
    return entries.compactMap(\.mailbox).filter { $0.queue.label.contains(text) }
  }

  deinit {
    let key = ObjectIdentifier(queue)
    Self.registry.withLock { registry in
      if registry[key]?.mailbox == nil { registry[key] = nil }
    }
  }

  /// Whether no drain is enqueued or running.
  var isIdle: Bool { waiting.withLock { $0.phase == .idle } }

  /// Adds parcels, in order, after those waiting; the poster kicks the mailbox afterwards. The
  /// parcel of a subscription that conflates merges into the one waiting for it (see
  /// ``DeliveryConflation``); when none waits, the parcels are only appended, and the places of
  /// those that conflate are noted only if another post comes before a drain.
  func post(_ parcels: some Sequence<Parcel>) {
    let conflates = parcels.contains { $0.subscription.conflation != .none }
    waiting.withLock { waiting in
      if waiting.parcels.isEmpty || !conflates {
        waiting.parcels.append(contentsOf: parcels)
      } else {
        waiting.indexConflatedParcels()
        for parcel in parcels { waiting.add(parcel) }
        waiting.indexedCount = waiting.parcels.count
        waiting.dropEmptiedParcelsOnceTheyOutnumberTheOthers()
      }
      postCount.wrappingAdd(1, ordering: .releasing)
    }
  }

  /// The number of events waiting for a drain (for tests).
  var waitingEventCount: Int {
    waiting.withLock { $0.parcels.reduce(0) { $0 + $1.records.count } }
  }

  /// The number of parcels waiting for a drain, emptied ones included (for tests).
  var waitingParcelCount: Int { waiting.withLock { $0.parcels.count } }

  /// Enqueues a drain when parcels wait and the mailbox is idle; a drain enqueued or running takes
  /// them otherwise.
  ///
  /// The drain is enqueued under the lock, so that no kick sees the phase scheduled before the
  /// drain is on the queue (a kick that returned then would let the application enqueue work
  /// ahead of its events). `async` runs no code of the application nor of this module and takes
  /// none of their locks.
  ///
  /// A kick that finds the flag `isIdleWithoutLock` false returns without taking the lock: a
  /// drain is enqueued or running, and it takes the parcels posted before the kick. A drain
  /// goes back to idle only under the lock, when no parcel waits, and sets the flag then; so
  /// after a post made later, the kick reads the flag true, or false only once another kick has
  /// enqueued a drain (the flag is set false after that `async`).
  func kick() {
    guard isIdleWithoutLock.load(ordering: .acquiring) else { return }
    waiting.withLock { waiting in
      guard waiting.phase == .idle, !waiting.parcels.isEmpty else { return }
      waiting.phase = .scheduled
      queue.async { self.drain() }
      isIdleWithoutLock.store(false, ordering: .releasing)
    }
  }

  /// Delivers the parcels waiting when it starts, then those posted meanwhile, round after round,
  /// until none waits (see the type's documentation for the wait of dense drains and the limit of
  /// a drain).
  private func drain() {
    let start = DispatchTime.now().uptimeNanoseconds
    var (parcels, isDense) = waiting.withLock { waiting in
      waiting.phase = .draining
      return (waiting.takeParcels(), start &- waiting.lastDrainEnd < Self.denseGap)
    }
    var waitEnd: UInt64?
    while true {
      if !parcels.isEmpty {
        deliver(parcels)
        // Emptied here, not under the lock: letting go of the events may free their values.
        parcels.removeAll(keepingCapacity: parcels.capacity <= Self.keptCapacity)
        waitEnd = nil
      }
      let now = DispatchTime.now().uptimeNanoseconds
      let mayContinue = now &- start < roundsLimit
      isDense = isDense && mayContinue
      if isDense, waitEnd == nil { waitEnd = now &+ Self.waitLimit }
      let mayWait = isDense && now < waitEnd ?? 0
      switch step(at: now, mayContinue: mayContinue, mayWait: mayWait, emptied: &parcels) {
      case .deliver(let posted):
        parcels = posted
      case .deliverLast(let posted):
        deliver(posted)
        return
      case .wait(let seen):
        repeat {
          sched_yield()
        } while postCount.load(ordering: .acquiring) == seen
          && DispatchTime.now().uptimeNanoseconds < waitEnd ?? 0
      case .end:
        return
      }
    }
  }

  /// The capacity up to which a drain gives back the array of a round's parcels for the next
  /// posts (see ``Waiting/spare``); a burst's is let go.
  private static let keptCapacity = 64

  /// What the drain does after a round, decided under the lock: take the parcels posted (past
  /// its limit, also enqueue a successor for those posted later), wait for some, or go back to
  /// idle. The array of the parcels delivered, `emptied`, is given back.
  private func step(
    at now: UInt64, mayContinue: Bool, mayWait: Bool, emptied: inout [Parcel]
  ) -> Step {
    waiting.withLock { waiting in
      waiting.giveBack(&emptied)
      if !waiting.parcels.isEmpty {
        guard mayContinue else {
          waiting.phase = .scheduled
          waiting.lastDrainEnd = now
          queue.async { self.drain() }
          return .deliverLast(waiting.takeParcels())
        }
        return .deliver(waiting.takeParcels())
      }
      // Read under the lock, where posts count themselves: no post is missed.
      if mayWait { return .wait(postCount: postCount.load(ordering: .relaxed)) }
      waiting.phase = .idle
      isIdleWithoutLock.store(true, ordering: .releasing)
      waiting.lastDrainEnd = now
      return .end
    }
  }

  /// Delivers a round of parcels, then tells each subscription served that its delivery ended,
  /// in the order they were first served.
  private func deliver(_ parcels: [Parcel]) {
    var served = InlineFirstList<SubscriptionCore>()
    var isServed = Set<ObjectIdentifier>()
    for parcel in parcels where !parcel.records.isEmpty {
      parcel.subscription.deliver(parcel.records)
      if Self.isNew(parcel.subscription, in: served, indexedBy: &isServed) {
        served.append(parcel.subscription)
      }
    }
    for subscription in served { subscription.endDelivery() }
  }

  /// Up to how many subscriptions a drain finds a served one by a linear search, without
  /// hashing (a queue usually serves a few subscriptions per write).
  private static let linearlySearchedCount = 8

  /// Whether `subscription` is not among `served` yet; past ``linearlySearchedCount`` served
  /// subscriptions, `index` holds their identifiers.
  private static func isNew(
    _ subscription: SubscriptionCore, in served: InlineFirstList<SubscriptionCore>,
    indexedBy index: inout Set<ObjectIdentifier>
  ) -> Bool {
    guard served.count >= linearlySearchedCount else {
      return !served.contains { $0 === subscription }
    }
    if index.isEmpty { index = Set(served.lazy.map(ObjectIdentifier.init)) }
    return index.insert(ObjectIdentifier(subscription)).inserted
  }
}

/// A registry entry that does not keep its mailbox alive.
private struct WeakMailbox {
  weak var mailbox: DeliveryMailbox?
}
