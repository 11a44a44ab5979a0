extension Publisher {
  /// Makes this publisher connectable: subscribers share one subscription to it, which starts on
  /// `connect()`.
  ///
  /// ```swift
  /// let connectable = values.makeConnectable()
  /// connectable.sink { print($0) }.store(in: &cancellables)
  /// connectable.connect().store(in: &cancellables)
  /// ```
  public func makeConnectable() -> Publishers.MakeConnectable<Self> {
    Publishers.MakeConnectable(upstream: self)
  }
}

extension Publishers {
  /// A connectable publisher sharing its upstream through a `PassthroughSubject`.
  public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    private let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

    /// A connectable version of `upstream`.
    public init(upstream: Upstream) {
      inner = Multicast(upstream: upstream) { PassthroughSubject() }
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      inner.receive(subscriber: subscriber)
    }

    public func connect() -> any Cancellable {
      inner.connect()
    }
  }
}
