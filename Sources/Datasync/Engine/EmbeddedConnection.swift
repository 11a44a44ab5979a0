import Foundation

/// The connection of one client to a ``DatasyncDatabase`` in the same process.
///
/// Requests travel in order through one FIFO, and the back end's messages through another, both
/// worked off by one drain at a time on one serial queue, so the back end sees the client's
/// requests in order and the client receives the back end's messages in order, never from inside
/// ``send(_:)`` (acknowledgements arrive after the local events, as over a network).
///
/// A request costs no thread hand-off: ``send(_:)`` only queues it, and ``flush()``, which the
/// client calls once it has released its lock, runs the drain on the calling thread (waiting for
/// no one: when a drain is running or scheduled, that drain takes the request). The back end's
/// answers then reach the client within that drain, so a write's local events and its
/// acknowledgement usually reach their queue in one batch. Messages the back end sends on its own
/// (another client's write) schedule a drain on `queue` with `queue.async`, which the database
/// enqueues once its lock is released.
///
/// Test hooks make it behave like a network: ``setLatency(_:)`` delays every request and every
/// message (order is kept), ``dropConnection(reconnecting:)`` cuts the connection as a lost
/// network would (the back end runs the client's disconnection writes). The embedded network
/// loses nothing: a request that reaches a cut connection waits and reaches the back end right
/// after the next reconnection, before the client learns that it is connected again.
///
/// Thread safety: `lock` protects `mail` (the receiver, the requests and messages waiting, and
/// whether a drain is running or scheduled). Every other piece of state is only touched by the
/// running drain, whichever thread runs it: a drain starts only by marking itself as running
/// under `lock`, and ends by clearing that mark under `lock`, so one drain at a time touches it
/// and each sees what the one before wrote. Delayed work (the latency hook) runs within a drain
/// too: its timer only queues it.
final class EmbeddedConnection: BackEndConnection, @unchecked Sendable {
  /// What travels towards the back end: a request, or work of the connection itself (a change
  /// of connection, a test hook), run by the drain in order with the requests.
  private enum Upstream {
    case request(ClientRequest)
    case work(() -> Void)
  }

  /// The client's handler of the back end's messages, kept in a struct: a bare function type
  /// read out of a lock's generic closure comes back wrapped in a newly allocated thunk.
  private struct Receiver {
    let receive: @Sendable ([BackEndMessage]) -> Void
  }

  /// What `lock` protects.
  private struct Mail {
    var receiver: Receiver?
    var upstream: [Upstream] = []
    var downstream: [BackEndMessage] = []
    /// Whether a drain is running: it takes everything queued until it finds both FIFOs empty.
    var isDraining = false
    /// Whether a drain is enqueued on `queue` and has not started.
    var isScheduled = false

    var isEmpty: Bool { upstream.isEmpty && downstream.isEmpty }

    /// Marks a drain as scheduled and returns true when something waits and no drain is running
    /// or scheduled: the caller then enqueues it (``EmbeddedConnection/enqueueDrain()``).
    mutating func schedulesDrain() -> Bool {
      guard !isEmpty, !isDraining, !isScheduled else { return false }
      isScheduled = true
      return true
    }
  }

  private let database: DatasyncDatabase
  private let queue: DispatchQueue
  /// Protects `mail`.
  private let lock = SpinningMutex()
  /// Only touched with `lock` held, so no two accesses overlap: the dynamic exclusivity check is
  /// left out.
  @exclusivity(unchecked) private var mail = Mail()
  // Everything below is touched only by the running drain, one at a time, so no two accesses
  // overlap: the fields a drain reads for every request and message leave out the dynamic
  // exclusivity check.
  @exclusivity(unchecked) private var isAttached = false
  /// The state the client asked for with ``setConnected(_:)``.
  private var wantsConnection = false
  /// Requests that reached the connection while it was cut, sent at the next reconnection.
  private var held: [ClientRequest] = []
  @exclusivity(unchecked) private var latency: Latency?
  private var random = SeededRandom(seed: 0)
  @exclusivity(unchecked) private var upstream = DelayLine()
  @exclusivity(unchecked) private var downstream = DelayLine()
  /// The FIFOs the running drain took from `mail` (touched only by it): emptied once worked
  /// off, their storage is swapped back into `mail` at the next take, so that a request and its
  /// answer allocate no FIFO storage.
  @exclusivity(unchecked) private var takenUpstream: [Upstream] = []
  @exclusivity(unchecked) private var takenDownstream: [BackEndMessage] = []
  /// The receiver as it was at the running drain's last take (touched only by it): the messages
  /// taken then reach it without another turn of the lock.
  @exclusivity(unchecked) private var takenReceiver: Receiver?
  /// The capacity up to which a drain keeps the buffers it took; a burst's are released. A
  /// client that lags behind takes hundreds of messages at once: below this bound, the next ones
  /// arrive (with the database's lock held) in storage that need not grow.
  private static let keptCapacity = 1_024

  init(database: DatasyncDatabase, label: String) {
    self.database = database
    self.queue = DispatchQueue(label: "datasync.connection.\(label)")
  }

  func open(receiver: @escaping @Sendable ([BackEndMessage]) -> Void) {
    lock.withLock { mail.receiver = Receiver(receive: receiver) }
    setConnected(true)
  }

  /// Queues a request; it travels at the next ``flush()`` (or with a drain already under way).
  func send(_ request: ClientRequest) {
    lock.withLock { mail.upstream.append(.request(request)) }
  }

  /// Runs the requests queued by ``send(_:)`` on the calling thread unless a drain is running or
  /// scheduled (it takes them: a flush from within a drain, by a client it delivered a message
  /// to, returns at once); called by the client with no lock held.
  func flush() {
    let drainsHere = lock.withLock { () -> Bool in
      guard !mail.upstream.isEmpty, !mail.isDraining, !mail.isScheduled else { return false }
      mail.isDraining = true
      return takeMailLocked()
    }
    if drainsHere { drain() }
  }

  func setConnected(_ connected: Bool) {
    enqueue { [self] in
      wantsConnection = connected
      travel(.upstream) { [self] in attach(connected) }
    }
  }

  func close() {
    setConnected(false)
    let released = lock.withLock { () -> Receiver? in
      defer { mail.receiver = nil }
      return mail.receiver
    }
    _ = released
  }

  // MARK: Test hooks

  /// Delays every later request and message by the given latency (nil: no added delay).
  func setLatency(_ latency: Latency?) {
    enqueue { [self] in
      self.latency = latency
      random = SeededRandom(seed: latency?.seed ?? 0)
    }
  }

  /// Cuts the connection as a lost network would, after the requests already sent: the back end
  /// runs this client's disconnection writes and the client is told it is disconnected. With
  /// `reconnecting`, the connection comes back at once (after the latency) if the client still
  /// wants it; otherwise it stays cut until ``restoreConnection()``.
  func dropConnection(reconnecting: Bool = true) {
    enqueue { [self] in
      travel(.upstream) { [self] in
        attach(false)
        if reconnecting && wantsConnection {
          travel(.upstream) { [self] in attach(wantsConnection) }
        }
      }
    }
  }

  /// Reconnects a connection cut by ``dropConnection(reconnecting:)``, if the client wants it.
  func restoreConnection() {
    enqueue { [self] in
      travel(.upstream) { [self] in attach(wantsConnection) }
    }
  }

  // MARK: Draining

  /// Queues work of the connection after the requests sent so far, and schedules a drain.
  private func enqueue(_ work: @escaping () -> Void) {
    let schedules = lock.withLock { () -> Bool in
      mail.upstream.append(.work(work))
      return mail.schedulesDrain()
    }
    if schedules { enqueueDrain() }
  }

  /// Queues a message of the back end (called with the database's lock held: it only queues),
  /// and schedules a drain unless one is running or scheduled: the database enqueues it once its
  /// lock is released.
  private func arrive(_ message: BackEndMessage) {
    let schedules = lock.withLock { () -> Bool in
      mail.downstream.append(message)
      return mail.schedulesDrain()
    }
    if schedules { database.wakeAfterUnlocking(self) }
  }

  /// Enqueues the drain that `Mail.schedulesDrain()` marked as scheduled.
  func enqueueDrain() {
    queue.async { [self] in
      let starts = lock.withLock { () -> Bool in
        mail.isScheduled = false
        guard !mail.isDraining else { return false }
        mail.isDraining = true
        return takeMailLocked()
      }
      if starts { drain() }
    }
  }

  /// Takes what waits in both FIFOs for the running drain, requests first, or ends the drain
  /// when both are empty; returns whether it took something. Called with `lock` held, by the
  /// running drain (or by the caller that just marked it as running).
  private func takeMailLocked() -> Bool {
    guard !mail.isEmpty else {
      mail.isDraining = false
      return false
    }
    swap(&mail.upstream, &takenUpstream)
    swap(&mail.downstream, &takenDownstream)
    takenReceiver = mail.receiver
    return true
  }

  /// Works off what was taken, then takes again, until both FIFOs are empty; its caller marked
  /// it as running and made the first take (on `queue`, or on the thread of a flush), under the
  /// lock it held for that, so that a request costs one lock fewer.
  private func drain() {
    repeat {
      // Each request and message is moved out of its FIFO (see `Array.removeEach(_:)`), which
      // keeps its storage for the next take.
      takenUpstream.removeEach { item in
        switch item {
        case .request(let request):
          if travelsAtOnce(.upstream) {
            deliver(request)
          } else {
            travel(.upstream) { [self] in deliver(request) }
          }
        case .work(let work):
          work()
        }
      }
      // Without latency, the messages taken reach the client in one batch; with it, each
      // travels on its own.
      if travelsAtOnce(.downstream) {
        receive(takenDownstream)
        takenDownstream.removeAll(keepingCapacity: true)
      } else {
        takenDownstream.removeEach { message in
          travel(.downstream) { [self] in receive([message]) }
        }
      }
      if takenUpstream.capacity > Self.keptCapacity { takenUpstream = [] }
      if takenDownstream.capacity > Self.keptCapacity { takenDownstream = [] }
    } while lock.withLock { takeMailLocked() }
  }

  // MARK: Internals

  /// Attaches to (or detaches from) the back end; on attachment, the held requests go first.
  private func attach(_ connected: Bool) {
    guard connected != isAttached else { return }
    isAttached = connected
    let client = ObjectIdentifier(self)
    if connected {
      // The back end holds the connection until it detaches (at the latest when the client
      // closes it): a strong reference, as a weak one would give the connection a side table
      // and send every retain of it, and every message's load of the reference, the slow way.
      database.attach(client, sharingTree: true) { [self] message in arrive(message) }
      let requests = held
      held = []
      for request in requests { database.handle(request, from: client) }
    } else {
      database.detach(client)
    }
  }

  /// Hands a request to the back end, or holds it while the connection is cut.
  private func deliver(_ request: ClientRequest) {
    if isAttached {
      database.handle(request, from: ObjectIdentifier(self))
    } else {
      held.append(request)
    }
  }

  /// Whether work taking a direction now runs at once (no latency, nothing waiting ahead of
  /// it), as ``travel(_:_:)`` would run it: the caller then runs it without making a closure.
  private func travelsAtOnce(_ direction: Direction) -> Bool {
    guard latency == nil else { return false }
    switch direction {
    case .upstream: return upstream.isEmpty
    case .downstream: return downstream.isEmpty
    }
  }

  /// The two ways through the connection, each keeping its order.
  private enum Direction {
    case upstream, downstream
  }

  /// Runs `work` after the latency (within a drain), never before the work that took the same
  /// direction first.
  private func travel(_ direction: Direction, _ work: @escaping () -> Void) {
    let delay =
      latency.map { latency in
        latency.minimum + (latency.maximum - latency.minimum) * random.nextUnitInterval()
      } ?? 0
    switch direction {
    case .upstream:
      if delay <= 0 && upstream.isEmpty { return work() }
      upstream.append(work, after: delay)
    case .downstream:
      if delay <= 0 && downstream.isEmpty { return work() }
      downstream.append(work, after: delay)
    }
    scheduleReadyWork(direction)
  }

  /// Runs the ready work of a direction when its first waiting work is due (one timer per
  /// direction at a time): the timer queues a drain's work that runs it.
  private func scheduleReadyWork(_ direction: Direction) {
    let deadline: DispatchTime?
    switch direction {
    case .upstream: deadline = upstream.armTimer()
    case .downstream: deadline = downstream.armTimer()
    }
    guard let deadline else { return }
    queue.asyncAfter(deadline: deadline) { [self] in
      enqueue { [self] in runReadyWork(direction) }
    }
  }

  /// Runs the work of a direction whose deadline has passed, in order, then arms the timer for
  /// the rest; runs within a drain.
  private func runReadyWork(_ direction: Direction) {
    switch direction {
    case .upstream: upstream.hasTimer = false
    case .downstream: downstream.hasTimer = false
    }
    while true {
      let ready: (() -> Void)?
      switch direction {
      case .upstream: ready = upstream.removeFirstReady()
      case .downstream: ready = downstream.removeFirstReady()
      }
      guard let ready else { break }
      ready()
    }
    scheduleReadyWork(direction)
  }

  /// Hands messages to the receiver of the drain's last take (none once the client closed the
  /// connection before it).
  private func receive(_ messages: [BackEndMessage]) {
    guard !messages.isEmpty, let receiver = takenReceiver else { return }
    receiver.receive(messages)
  }
}

/// Work waiting on a connection's queue: each item runs no earlier than its own deadline and
/// never before the items that entered first.
private struct DelayLine {
  private var items: [(deadline: DispatchTime, work: () -> Void)] = []
  private var start = 0
  private var lastDeadline = DispatchTime(uptimeNanoseconds: 0)

  var isEmpty: Bool { start == items.count }

  /// Whether a timer will run the work that is due.
  var hasTimer = false

  /// The deadline for a new timer, or nil when there is no work or a timer is already armed.
  mutating func armTimer() -> DispatchTime? {
    guard !hasTimer, !isEmpty else { return nil }
    hasTimer = true
    return items[start].deadline
  }

  /// Adds work due `delay` seconds from now, or with the work ahead of it.
  mutating func append(_ work: @escaping () -> Void, after delay: TimeInterval) {
    let deadline = max(DispatchTime.now() + max(delay, 0), lastDeadline)
    lastDeadline = deadline
    items.append((deadline, work))
  }

  /// Removes and returns the first work if its deadline has passed (one at a time, so that work
  /// added while it runs goes after the work still waiting).
  mutating func removeFirstReady() -> (() -> Void)? {
    guard start < items.count, items[start].deadline <= DispatchTime.now() else { return nil }
    let work = items[start].work
    start += 1
    if start == items.count {
      items = []
      start = 0
    } else if start > 64 && start * 2 > items.count {
      items.removeFirst(start)
      start = 0
    }
    return work
  }
}
