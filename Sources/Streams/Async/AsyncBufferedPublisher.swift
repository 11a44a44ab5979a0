extension Publisher {
  /// The values of this publisher as an `AsyncSequence` that keeps values arriving while the loop
  /// body runs, as `policy` says.
  ///
  /// Use it for hot publishers such as subjects, whose values would otherwise be dropped while the
  /// loop is busy. It requests unlimited demand when the iterator is made. With `Failure == Never`
  /// the loop needs no `try`.
  ///
  /// ```swift
  /// for await value in subject.values(bufferingPolicy: .bufferingNewest(10)) { await render(value) }
  /// ```
  @inlinable
  public func values(bufferingPolicy policy: AsyncBufferingPolicy) -> AsyncBufferedPublisher<Self> {
    AsyncBufferedPublisher(self, policy: policy)
  }
}

/// The values of a publisher, buffered by a policy, as an `AsyncSequence`.
///
/// Making the iterator subscribes and requests unlimited values; values that arrive while nobody
/// awaits are kept per the ``AsyncBufferingPolicy``. The loop ends after the kept values when the
/// publisher finishes; a failure is thrown after the kept values. Cancelling the task or leaving
/// the loop cancels the upstream subscription and drops the kept values.
public struct AsyncBufferedPublisher<Upstream: Publisher>: AsyncSequence {
  public typealias Element = Upstream.Output
  public typealias Failure = Upstream.Failure

  @usableFromInline let upstream: Upstream
  @usableFromInline let policy: AsyncBufferingPolicy

  /// The values of `publisher`, kept as `policy` says.
  @inlinable
  public init(_ publisher: Upstream, policy: AsyncBufferingPolicy) {
    upstream = publisher
    self.policy = policy
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let channel = AsyncBufferChannel<Element, Failure>(policy: policy)
    upstream.subscribe(channel)
    return Iterator(channel: channel, lifetime: AsyncIteratorLifetime(channel))
  }

  /// Takes kept values in order, waiting when there is none.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let channel: AsyncBufferChannel<Element, Failure>
    @usableFromInline let lifetime: AsyncIteratorLifetime

    @inlinable
    init(channel: AsyncBufferChannel<Element, Failure>, lifetime: AsyncIteratorLifetime) {
      self.channel = channel
      self.lifetime = lifetime
    }

    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure)
      -> Element?
    {
      try await channel.next(isolation: actor).get()
    }
  }
}
