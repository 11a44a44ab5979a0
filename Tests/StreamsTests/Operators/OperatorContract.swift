import Dispatch
import Streams
import StreamsTesting
import Testing

/// The error the contract checks fail upstreams with.
struct TestError: Error, Equatable, CustomStringConvertible {
  let code: Int
  var description: String { "TestError(\(code))" }
}

/// How a recorded stream ended.
enum Ending: Equatable {
  case none
  case finished
  case failed(String)

  static let upstreamFailure = Ending.failed(TestError(code: 7).description)
}

extension RecordingSubscriber {
  /// The completion as an ``Ending``, comparing failures by description.
  var ending: Ending {
    switch completion {
    case nil: return .none
    case .finished: return .finished
    case .failure(let error): return .failed("\(error)")
    }
  }
}

/// An object captured by operator closures, so a test can see when the chain releases them.
final class LifeToken: @unchecked Sendable {
  // No state: it is only ever observed through a weak reference.
  func keep<T>(_ value: T) -> T { value }
}

/// A subscriber that cancels its subscription from inside `receive(_:)` of the first value and
/// counts what arrives afterwards.
final class CancelOnFirstValue<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  // Used from one thread only: the tests drive its upstream synchronously.
  private(set) var subscription: (any Subscription)?
  private(set) var values: [Input] = []
  private(set) var completions = 0

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    values.append(input)
    subscription?.cancel()
    subscription = nil
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    completions += 1
  }
}

/// The contract every operator is checked against, on an `Int` upstream that can
/// fail with ``TestError``.
///
/// - Parameters:
///   - inputs: the values the upstream produces.
///   - expected: what the operator delivers for `inputs` followed by `.finished`.
///   - ending: how the operator ends then.
///   - expectedOnFailure / failureEnding: what it delivers, and how it ends, for `inputs`
///     followed by a ``TestError`` failure.
///   - deliversWhileRunning: whether the operator delivers values before its upstream completes,
///     so a cancel from inside `receive(_:)` can be checked.
///   - make: builds the operator on an upstream; closures should capture the token.
func checkContract<P: Publisher>(
  inputs: [Int], expected: [P.Output], ending: Ending = .finished,
  expectedOnFailure: [P.Output]? = nil, failureEnding: Ending = .upstreamFailure,
  deliversWhileRunning: Bool = true,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ make: (AnyPublisher<Int, TestError>, LifeToken) -> P
) where P.Output: Equatable {
  checkValues(
    inputs: inputs, then: .finished, expected: expected, ending: ending,
    sourceLocation: sourceLocation, make)
  checkValues(
    inputs: inputs, then: .failure(TestError(code: 7)),
    expected: expectedOnFailure ?? expected, ending: failureEnding,
    sourceLocation: sourceLocation, make)
  checkDemand(inputs: inputs, expected: expected, sourceLocation: sourceLocation, make)
  checkCancel(inputs: inputs, sourceLocation: sourceLocation, make)
  if deliversWhileRunning, !expected.isEmpty {
    checkCancelInsideReceive(inputs: inputs, sourceLocation: sourceLocation, make)
  }
  checkRelease(inputs: inputs, cancelling: true, sourceLocation: sourceLocation, make)
  checkRelease(inputs: inputs, cancelling: false, sourceLocation: sourceLocation, make)
}

/// Values and completion from a hand-driven upstream, with unlimited demand.
func checkValues<P: Publisher>(
  inputs: [Int], then completion: Subscribers.Completion<TestError>, expected: [P.Output],
  ending: Ending, sourceLocation: SourceLocation,
  _ make: (AnyPublisher<Int, TestError>, LifeToken) -> P
) where P.Output: Equatable {
  let upstream = ManualPublisher<Int, TestError>()
  let recorder = RecordingSubscriber<P.Output, P.Failure>(sourceLocation: sourceLocation)
  make(upstream.eraseToAnyPublisher(), LifeToken()).subscribe(recorder)
  for input in inputs {
    upstream.send(input)
  }
  upstream.send(completion: completion)
  #expect(recorder.values == expected, sourceLocation: sourceLocation)
  #expect(recorder.ending == ending, sourceLocation: sourceLocation)
  #expect(recorder.violations.isEmpty, sourceLocation: sourceLocation)
}

/// A subscriber asking for one value at a time from a demand-honouring upstream gets exactly
/// what it asked for; one asking for a single value gets one.
func checkDemand<P: Publisher>(
  inputs: [Int], expected: [P.Output], sourceLocation: SourceLocation,
  _ make: (AnyPublisher<Int, TestError>, LifeToken) -> P
) where P.Output: Equatable {
  let source = inputs.publisher.setFailureType(to: TestError.self).eraseToAnyPublisher()
  let stepping = RecordingSubscriber<P.Output, P.Failure>(
    initialDemand: .max(1), demandPerValue: .max(1), sourceLocation: sourceLocation)
  make(source, LifeToken()).subscribe(stepping)
  #expect(stepping.values == expected, sourceLocation: sourceLocation)
  #expect(stepping.violations.isEmpty, sourceLocation: sourceLocation)

  let single = RecordingSubscriber<P.Output, P.Failure>(
    initialDemand: .max(1), sourceLocation: sourceLocation)
  make(source, LifeToken()).subscribe(single)
  #expect(single.values == Array(expected.prefix(1)), sourceLocation: sourceLocation)
  #expect(single.violations.isEmpty, sourceLocation: sourceLocation)
  if expected.count > 1 {
    #expect(single.completion == nil, sourceLocation: sourceLocation)
    single.request(.max(1))
    #expect(single.values == Array(expected.prefix(2)), sourceLocation: sourceLocation)
  }

  let none = RecordingSubscriber<P.Output, P.Failure>(
    initialDemand: .none, sourceLocation: sourceLocation)
  make(source, LifeToken()).subscribe(none)
  #expect(none.values.isEmpty, sourceLocation: sourceLocation)
  #expect(none.violations.isEmpty, sourceLocation: sourceLocation)
}

/// A cancel reaches the upstream, and nothing arrives after it.
func checkCancel<P: Publisher>(
  inputs: [Int], sourceLocation: SourceLocation,
  _ make: (AnyPublisher<Int, TestError>, LifeToken) -> P
) {
  let upstream = ManualPublisher<Int, TestError>()
  let recorder = RecordingSubscriber<P.Output, P.Failure>(sourceLocation: sourceLocation)
  make(upstream.eraseToAnyPublisher(), LifeToken()).subscribe(recorder)
  let eventsBeforeCancel = recorder.events.count
  recorder.cancel()
  recorder.cancel()
  #expect(upstream.cancelCount == 1, sourceLocation: sourceLocation)
  #expect(!upstream.hasSubscribers, sourceLocation: sourceLocation)
  for input in inputs {
    upstream.send(input)
  }
  upstream.send(completion: .finished)
  #expect(recorder.events.count == eventsBeforeCancel, sourceLocation: sourceLocation)

  let concurrentUpstream = ManualPublisher<Int, TestError>()
  let holder = SubscriptionHolder<P.Output, P.Failure>()
  make(concurrentUpstream.eraseToAnyPublisher(), LifeToken()).subscribe(holder)
  // Subscriptions are not Sendable, but the contract makes `cancel()` safe from any thread.
  nonisolated(unsafe) let subscription = holder.subscription
  DispatchQueue.concurrentPerform(iterations: 4) { _ in
    subscription?.cancel()
  }
  #expect(!concurrentUpstream.hasSubscribers, sourceLocation: sourceLocation)
  for input in inputs {
    concurrentUpstream.send(input)
  }
  concurrentUpstream.send(completion: .finished)
  #expect(holder.events == 0, sourceLocation: sourceLocation)
}

/// A subscriber that keeps its subscription, asks for nothing and counts values and completions.
final class SubscriptionHolder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  // `subscription` is set once before any other thread sees it; `events` is only written by the
  // serialised calls of the publisher and read after them.
  private(set) var subscription: (any Subscription)?
  private(set) var events = 0

  func receive(subscription: any Subscription) {
    self.subscription = subscription
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    events += 1
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    events += 1
  }
}

/// A cancel from inside `receive(_:)` stops delivery at once.
func checkCancelInsideReceive<P: Publisher>(
  inputs: [Int], sourceLocation: SourceLocation,
  _ make: (AnyPublisher<Int, TestError>, LifeToken) -> P
) {
  let upstream = ManualPublisher<Int, TestError>()
  let subscriber = CancelOnFirstValue<P.Output, P.Failure>()
  make(upstream.eraseToAnyPublisher(), LifeToken()).subscribe(subscriber)
  for input in inputs {
    upstream.send(input)
  }
  upstream.send(completion: .finished)
  #expect(subscriber.values.count == 1, sourceLocation: sourceLocation)
  #expect(subscriber.completions == 0, sourceLocation: sourceLocation)
  #expect(!upstream.hasSubscribers, sourceLocation: sourceLocation)
}

/// After a cancel, or after the stream completes, a still-living upstream keeps nothing of the
/// chain alive: the subscriber and the operator's closures are released.
func checkRelease<P: Publisher>(
  inputs: [Int], cancelling: Bool, sourceLocation: SourceLocation,
  _ make: (AnyPublisher<Int, TestError>, LifeToken) -> P
) {
  let upstream = ManualPublisher<Int, TestError>()
  weak var weakToken: LifeToken?
  weak var weakRecorder: RecordingSubscriber<P.Output, P.Failure>?
  do {
    let token = LifeToken()
    let recorder = RecordingSubscriber<P.Output, P.Failure>(sourceLocation: sourceLocation)
    weakToken = token
    weakRecorder = recorder
    make(upstream.eraseToAnyPublisher(), token).subscribe(recorder)
    for input in inputs.prefix(1) {
      upstream.send(input)
    }
    if cancelling {
      recorder.cancel()
    } else {
      upstream.send(completion: .finished)
      #expect(recorder.completion != nil, sourceLocation: sourceLocation)
    }
  }
  #expect(weakToken == nil, "operator closures leaked", sourceLocation: sourceLocation)
  #expect(weakRecorder == nil, "subscriber leaked", sourceLocation: sourceLocation)
  #expect(!upstream.hasSubscribers, sourceLocation: sourceLocation)
}
