import Foundation
import Streams
import Testing

/// A subscriber that records everything it receives and checks the publisher's contract.
///
/// It requests `initialDemand` when subscribed and returns `demandPerValue` from every value, and
/// keeps a demand ledger: a value delivered beyond the demand it asked for, anything delivered
/// after the completion, a second subscription, or two calls overlapping in time is a contract
/// violation, recorded in ``violations`` and reported as a test issue.
///
/// ```swift
/// let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
/// (1...3).publisher.subscribe(recorder)
/// #expect(recorder.values == [1, 2, 3])
/// ```
public final class RecordingSubscriber<Input, Failure: Error>: Subscriber, Cancellable,
  @unchecked Sendable
{
  /// One recorded event.
  public enum Event {
    /// The subscription arrived.
    case subscription
    /// A value arrived.
    case value(Input)
    /// The completion arrived.
    case completion(Subscribers.Completion<Failure>)
  }

  private let lock = NSLock()
  private let initialDemand: Subscribers.Demand
  private let demandPerValue: Subscribers.Demand
  private let clock: (@Sendable () -> Int)?
  private let sourceLocation: SourceLocation
  // Protected by `lock`: the recording, the ledger, the subscription and the in-call flag.
  private var recorded: [(event: Event, time: Int?)] = []
  private var outstanding = Subscribers.Demand.none
  private var subscription: (any Subscription)?
  private var hasSubscription = false
  private var isCompleted = false
  private var isInsideCall = false
  private var recordedViolations: [String] = []

  /// A recorder requesting `initialDemand` on subscription and `demandPerValue` after each value.
  ///
  /// - Parameters:
  ///   - initialDemand: the demand requested when the subscription arrives.
  ///   - demandPerValue: the demand returned from each value.
  ///   - clock: stamps each event with a time, for example a `TestScheduler`'s virtual time in
  ///     nanoseconds.
  ///   - sourceLocation: where contract violations are reported; the caller's by default.
  public init(
    initialDemand: Subscribers.Demand = .unlimited,
    demandPerValue: Subscribers.Demand = .none,
    clock: (@Sendable () -> Int)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
    self.clock = clock
    self.sourceLocation = sourceLocation
  }

  /// Every event in arrival order.
  public var events: [Event] { lock.withLock { recorded.map(\.event) } }

  /// Every event with the time the clock gave when it arrived.
  public var timedEvents: [(event: Event, time: Int?)] { lock.withLock { recorded } }

  /// The values received, in order.
  public var values: [Input] {
    lock.withLock {
      recorded.compactMap {
        if case .value(let value) = $0.event { return value }
        return nil
      }
    }
  }

  /// The completion, once received.
  public var completion: Subscribers.Completion<Failure>? {
    lock.withLock {
      for entry in recorded {
        if case .completion(let completion) = entry.event { return completion }
      }
      return Subscribers.Completion<Failure>?.none
    }
  }

  /// Whether the subscription was received.
  public var isSubscribed: Bool { lock.withLock { hasSubscription } }

  /// The demand requested and not yet served.
  public var outstandingDemand: Subscribers.Demand { lock.withLock { outstanding } }

  /// Contract violations seen so far (each also reported as a test issue).
  public var violations: [String] { lock.withLock { recordedViolations } }

  /// Requests more values through the subscription.
  public func request(_ demand: Subscribers.Demand) {
    lock.lock()
    outstanding += demand
    let subscription = self.subscription
    lock.unlock()
    subscription?.request(demand)
  }

  /// Cancels the subscription.
  public func cancel() {
    lock.lock()
    let subscription = self.subscription
    self.subscription = nil
    lock.unlock()
    subscription?.cancel()
  }

  public func receive(subscription: any Subscription) {
    lock.lock()
    if hasSubscription {
      violate("received a second subscription")
      lock.unlock()
      subscription.cancel()
      return
    }
    hasSubscription = true
    self.subscription = subscription
    recorded.append((.subscription, clock?()))
    outstanding += initialDemand
    lock.unlock()
    if initialDemand > 0 {
      subscription.request(initialDemand)
    }
  }

  public func receive(_ input: Input) -> Subscribers.Demand {
    enterCall()
    lock.lock()
    if isCompleted { violate("received a value after the completion") }
    if outstanding == .none {
      violate("received a value beyond demand")
    } else {
      outstanding -= 1
    }
    recorded.append((.value(input), clock?()))
    outstanding += demandPerValue
    lock.unlock()
    leaveCall()
    return demandPerValue
  }

  public func receive(completion: Subscribers.Completion<Failure>) {
    enterCall()
    lock.lock()
    if isCompleted { violate("received a second completion") }
    isCompleted = true
    recorded.append((.completion(completion), clock?()))
    subscription = nil
    lock.unlock()
    leaveCall()
  }

  /// Marks a call as in progress; a call already in progress on another thread is an overlap.
  private func enterCall() {
    lock.lock()
    if isInsideCall { violate("calls into the subscriber overlapped") }
    isInsideCall = true
    lock.unlock()
  }

  private func leaveCall() {
    lock.lock()
    isInsideCall = false
    lock.unlock()
  }

  /// Called with the lock held.
  private func violate(_ message: String) {
    recordedViolations.append(message)
    Issue.record(
      Comment(rawValue: "RecordingSubscriber: \(message)"), sourceLocation: sourceLocation)
  }
}
