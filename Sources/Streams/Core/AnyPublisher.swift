/// A publisher that hides the type of the publisher it wraps.
///
/// Use ``Publisher/eraseToAnyPublisher()`` to expose a chain as `AnyPublisher<Output, Failure>`
/// at an API boundary.
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
  @usableFromInline internal let box: PublisherBoxBase<Output, Failure>

  /// Wraps `publisher`; wrapping an `AnyPublisher` again reuses its box.
  @inlinable
  public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
    if let erased = publisher as? AnyPublisher<Output, Failure> {
      box = erased.box
    } else {
      box = PublisherBox(publisher)
    }
  }

  public var description: String { "AnyPublisher" }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    box.receive(subscriber: subscriber)
  }
}

extension Publisher {
  /// This publisher wrapped in an `AnyPublisher`.
  @inlinable
  public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    AnyPublisher(self)
  }
}

@usableFromInline
internal class PublisherBoxBase<Output, Failure: Error>: Publisher {
  @inlinable
  init() {}

  @inlinable
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    preconditionFailure("PublisherBoxBase is abstract")
  }
}

@usableFromInline
internal final class PublisherBox<Base: Publisher>: PublisherBoxBase<Base.Output, Base.Failure> {
  @usableFromInline let base: Base

  @inlinable
  init(_ base: Base) {
    self.base = base
  }

  @inlinable
  override func receive<S: Subscriber>(subscriber: S)
  where S.Input == Base.Output, S.Failure == Base.Failure {
    base.receive(subscriber: subscriber)
  }
}
