import Foundation

/// The connection of one client to a ``DatasyncDatabase`` in the same process.
///
/// Requests and messages travel through one serial queue, so the back end sees the client's
/// requests in order and the client receives the back end's messages in order, always
/// asynchronously (acknowledgements arrive after the local events, as over a network).
///
/// Test hooks make it behave like a network: ``setLatency(_:)`` delays every request and every
/// message (order is kept), ``dropConnection(reconnecting:)`` cuts the connection as a lost
/// network would (the back end runs the client's disconnection writes). The embedded network
/// loses nothing: a request that reaches a cut connection waits and reaches the back end right
/// after the next reconnection, before the client learns that it is connected again.
///
/// ``authenticate(withToken:then:)`` and ``signOut(then:)`` authenticate the connection with the
/// back end, in order with the client's requests, and take their own answers.
final class EmbeddedConnection: BackEndConnection, @unchecked Sendable {
  /// The delay added to each request and each message: uniform in `minimum...maximum`, drawn
  /// from a generator seeded with `seed`.
  struct Latency: Sendable {
    var minimum: TimeInterval
    var maximum: TimeInterval
    var seed: UInt64

    init(minimum: TimeInterval = 0, maximum: TimeInterval, seed: UInt64 = 0) {
      self.minimum = min(minimum, maximum)
      self.maximum = maximum
      self.seed = seed
    }
  }

  private let database: DatasyncDatabase
  private let queue: DispatchQueue
  /// Protects `receiver`, `authenticationAnswers`, `nextAuthenticationRequest` and
  /// `authenticationState`.
  private let lock = NSLock()
  private var receiver: (@Sendable (BackEndMessage) -> Void)?
  /// The answers awaited by ``authenticate(withToken:then:)`` and ``signOut(then:)``.
  private var authenticationAnswers:
    [WriteIdentifier: @Sendable (WebcomResult<DatasyncAuthentication?>) -> Void] = [:]
  /// Identifiers of the authentication requests, counting down from the top so that they never
  /// meet the client's, which count up.
  private var nextAuthenticationRequest = WriteIdentifier.max
  private var authenticationState: DatasyncAuthentication?
  /// Everything below is touched only on `queue`.
  private var isAttached = false
  /// The state the client asked for with ``setConnected(_:)``.
  private var wantsConnection = false
  /// Requests that reached the connection while it was cut, sent at the next reconnection.
  private var held: [ClientRequest] = []
  private var latency: Latency?
  private var random = SeededRandom(seed: 0)
  private var upstream = DelayLine()
  private var downstream = DelayLine()

  init(database: DatasyncDatabase, label: String) {
    self.database = database
    self.queue = DispatchQueue(label: "datasync.connection.\(label)")
  }

  func open(receiver: @escaping @Sendable (BackEndMessage) -> Void) {
    lock.withLock { self.receiver = receiver }
    setConnected(true)
  }

  func send(_ request: ClientRequest) {
    queue.async { [self] in
      travel(.upstream) { [self] in
        if isAttached {
          database.handle(request, from: ObjectIdentifier(self))
        } else {
          held.append(request)
        }
      }
    }
  }

  func setConnected(_ connected: Bool) {
    queue.async { [self] in
      wantsConnection = connected
      travel(.upstream) { [self] in attach(connected) }
    }
  }

  func close() {
    setConnected(false)
    let released = lock.withLock { () -> (@Sendable (BackEndMessage) -> Void)? in
      defer { receiver = nil }
      return receiver
    }
    _ = released
  }

  // MARK: Authentication

  /// The identity the back end last gave this connection: nil when unauthenticated (also after a
  /// disconnection, since every connection starts unauthenticated).
  var authentication: DatasyncAuthentication? {
    lock.withLock { authenticationState }
  }

  /// Authenticates the connection with a token, after the requests already sent: the back end
  /// checks the client's later requests as the token's identity.
  ///
  /// - Parameter then: Gets the identity, or `permissionDenied` for a token the back end does not
  ///   know (the connection's authentication is then unchanged). Called on the connection's queue.
  func authenticate(
    withToken token: String,
    then: @escaping @Sendable (WebcomResult<DatasyncAuthentication>) -> Void
  ) {
    let identifier = registerAuthenticationAnswer { result in
      then(
        result.flatMap { authentication in
          authentication.map { .success($0) }
            ?? .failure(WebcomError(.internalError, "the back end answered without an identity"))
        })
    }
    send(.authenticate(identifier, token: token))
  }

  /// Makes the connection unauthenticated, after the requests already sent.
  ///
  /// - Parameter then: Called on the connection's queue once the back end has done it.
  func signOut(then: @escaping @Sendable () -> Void) {
    let identifier = registerAuthenticationAnswer { _ in then() }
    send(.signOut(identifier))
  }

  private func registerAuthenticationAnswer(
    _ answer: @escaping @Sendable (WebcomResult<DatasyncAuthentication?>) -> Void
  ) -> WriteIdentifier {
    lock.withLock {
      defer { nextAuthenticationRequest -= 1 }
      authenticationAnswers[nextAuthenticationRequest] = answer
      return nextAuthenticationRequest
    }
  }

  // MARK: Test hooks

  /// Delays every later request and message by the given latency (nil: no added delay).
  func setLatency(_ latency: Latency?) {
    queue.async { [self] in
      self.latency = latency
      random = SeededRandom(seed: latency?.seed ?? 0)
    }
  }

  /// Cuts the connection as a lost network would, after the requests already sent: the back end
  /// runs this client's disconnection writes and the client is told it is disconnected. With
  /// `reconnecting`, the connection comes back at once (after the latency) if the client still
  /// wants it; otherwise it stays cut until ``restoreConnection()``.
  func dropConnection(reconnecting: Bool = true) {
    queue.async { [self] in
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
    queue.async { [self] in
      travel(.upstream) { [self] in attach(wantsConnection) }
    }
  }

  // MARK: Internals

  /// Attaches to (or detaches from) the back end; on attachment, the held requests go first.
  private func attach(_ connected: Bool) {
    guard connected != isAttached else { return }
    isAttached = connected
    let client = ObjectIdentifier(self)
    if connected {
      database.attach(client) { [weak self] message in
        guard let self else { return }
        self.queue.async {
          self.travel(.downstream) { self.receive(message) }
        }
      }
      let requests = held
      held = []
      for request in requests { database.handle(request, from: client) }
    } else {
      database.detach(client)
    }
  }

  /// The two ways through the connection, each keeping its order.
  private enum Direction {
    case upstream, downstream
  }

  /// Runs `work` on `queue` after the latency, never before the work that took the same
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
  /// direction at a time).
  private func scheduleReadyWork(_ direction: Direction) {
    let deadline: DispatchTime?
    switch direction {
    case .upstream: deadline = upstream.armTimer()
    case .downstream: deadline = downstream.armTimer()
    }
    guard let deadline else { return }
    queue.asyncAfter(deadline: deadline) { [self] in
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
  }

  /// Passes a message to the client, unless it answers an authentication request of this
  /// connection (then it goes to that request's answer).
  private func receive(_ message: BackEndMessage) {
    let (receiver, answer) = lock.withLock {
      () -> ((@Sendable (BackEndMessage) -> Void)?, (() -> Void)?) in
      switch message {
      case .authenticated(let identifier, let authentication):
        authenticationState = authentication
        let answer = authenticationAnswers.removeValue(forKey: identifier)
        return (nil, answer.map { answer in { answer(.success(authentication)) } })
      case .acknowledged(let identifier, _) where !authenticationAnswers.isEmpty:
        if let answer = authenticationAnswers.removeValue(forKey: identifier) {
          authenticationState = nil
          return (nil, { answer(.success(nil)) })
        }
      case .rejected(let identifier, let error, _) where !authenticationAnswers.isEmpty:
        if let answer = authenticationAnswers.removeValue(forKey: identifier) {
          return (nil, { answer(.failure(error)) })
        }
      case .authenticationChanged(let authentication):
        authenticationState = authentication
      case .disconnected:
        authenticationState = nil
      default:
        break
      }
      return (self.receiver, nil)
    }
    if let answer { return answer() }
    receiver?(message)
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

/// A small deterministic random generator (SplitMix64) for the latency hook.
private struct SeededRandom {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  /// A number in `0..<1`.
  mutating func nextUnitInterval() -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    value ^= value >> 31
    return Double(value >> 11) / Double(UInt64(1) << 53)
  }
}
