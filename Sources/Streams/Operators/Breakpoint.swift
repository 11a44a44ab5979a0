#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Publisher {
  /// Stops in the debugger (raises `SIGTRAP`) when one of the closures returns true for an
  /// event; otherwise passes every event through unchanged.
  ///
  /// Each closure is called with its event before the event is forwarded. Without a debugger
  /// attached, `SIGTRAP` ends the process, as with Combine: use it while debugging only.
  ///
  /// ```swift
  /// prices.breakpoint(receiveOutput: { $0 < 0 }).sink { show($0) }
  /// ```
  ///
  /// - Parameters:
  ///   - receiveSubscription: decides whether the upstream's subscription stops the program.
  ///   - receiveOutput: decides whether a value stops the program.
  ///   - receiveCompletion: decides whether the completion stops the program.
  @inlinable
  public func breakpoint(
    receiveSubscription: ((any Subscription) -> Bool)? = nil,
    receiveOutput: ((Output) -> Bool)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
  ) -> Publishers.Breakpoint<Self> {
    Publishers.Breakpoint(
      upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion)
  }

  /// Stops in the debugger (raises `SIGTRAP`) when the upstream fails; otherwise passes every
  /// event through unchanged.
  @inlinable
  public func breakpointOnError() -> Publishers.Breakpoint<Self> {
    breakpoint(receiveCompletion: { completion in
      if case .failure = completion { return true }
      return false
    })
  }
}

extension Publishers {
  /// A publisher that raises `SIGTRAP` when a closure says so for one of its upstream's events.
  ///
  /// See ``Publisher/breakpoint(receiveSubscription:receiveOutput:receiveCompletion:)``.
  public struct Breakpoint<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose events are checked.
    public let upstream: Upstream
    /// Decides whether the upstream's subscription stops the program.
    public let receiveSubscription: ((any Subscription) -> Bool)?
    /// Decides whether a value stops the program.
    public let receiveOutput: ((Upstream.Output) -> Bool)?
    /// Decides whether the completion stops the program.
    public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

    /// Creates a `Breakpoint` publisher from its upstream and closures.
    @inlinable
    public init(
      upstream: Upstream,
      receiveSubscription: ((any Subscription) -> Bool)? = nil,
      receiveOutput: ((Upstream.Output) -> Bool)? = nil,
      receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)? = nil
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let onSubscription = receiveSubscription
      let onOutput = receiveOutput
      let onCompletion = receiveCompletion
      let hooks = EventHooks<Output, Failure>(
        subscription: onSubscription.map { decide in { if decide($0) { raiseBreakpoint() } } },
        output: onOutput.map { decide in { if decide($0) { raiseBreakpoint() } } },
        completion: onCompletion.map { decide in { if decide($0) { raiseBreakpoint() } } },
        cancel: nil, request: nil, returnedDemand: nil)
      upstream.receive(
        subscriber: ObservingSubscriber(downstream: subscriber, hooks: hooks, name: "Breakpoint"))
    }
  }
}

/// Stops in the debugger: raises `SIGTRAP`.
@usableFromInline
internal func raiseBreakpoint() {
  raise(SIGTRAP)
}
