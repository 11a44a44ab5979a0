extension Collection where Element: Publisher {
  /// Combines the latest values of every publisher of the collection into an array, in
  /// collection order; same semantics as ``Publisher/combineLatest(_:)``. An empty collection
  /// finishes at once.
  ///
  /// ```swift
  /// [a, b, c].combineLatest().sink { print($0) }   // [latestA, latestB, latestC]
  /// ```
  @inlinable
  public func combineLatest() -> Publishers.CombineLatestCollection<Self> {
    Publishers.CombineLatestCollection(self)
  }
}

extension Publishers {
  /// The latest values of a collection of publishers, as an array; see
  /// ``Swift/Collection/combineLatest()``.
  public struct CombineLatestCollection<Upstreams: Collection>: Publisher
  where Upstreams.Element: Publisher {
    public typealias Output = [Upstreams.Element.Output]
    public typealias Failure = Upstreams.Element.Failure

    /// The upstream publishers.
    public let publishers: Upstreams

    /// The combination of `publishers`.
    @inlinable
    public init(_ publishers: Upstreams) {
      self.publishers = publishers
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let combination = CombineLatestSubscription.started(
        for: subscriber, upstreams: publishers.count
      ) { $0.map { $0 as! Upstreams.Element.Output } }
      for (id, publisher) in publishers.enumerated() {
        combination.attach(publisher, id: id)
      }
    }
  }
}
