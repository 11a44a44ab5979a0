extension Publishers {
  /// A publisher of the values of any number of upstreams of one type, interleaved.
  ///
  /// Same semantics as ``Publisher/merge(with:)``; with no upstream it finishes at once.
  ///
  /// ```swift
  /// Publishers.MergeMany(feeds).sink { print($0) }
  /// ```
  public struct MergeMany<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The upstreams.
    public let publishers: [Upstream]

    /// The merge of `upstream`.
    @inlinable
    public init(_ upstream: Upstream...) {
      publishers = upstream
    }

    /// The merge of the publishers of `upstream`.
    @inlinable
    public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
      publishers = Array(upstream)
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let merge = MergeSubscription.started(for: subscriber, upstreams: publishers.count)
      for (id, publisher) in publishers.enumerated() {
        publisher.receive(subscriber: merge.link(id))
      }
    }

    /// This merge with one more upstream.
    @inlinable
    public func merge(with other: Upstream) -> MergeMany<Upstream> {
      MergeMany(publishers + [other])
    }
  }
}
