#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A type that encodes an `Encodable` value into a top-level representation, such as
/// `JSONEncoder` producing `Data`.
public protocol TopLevelEncoder {
  /// The encoded representation.
  associatedtype Output

  /// Encodes `value`; throws if it cannot be encoded.
  func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A type that decodes a `Decodable` value from a top-level representation, such as
/// `JSONDecoder` reading `Data`.
public protocol TopLevelDecoder {
  /// The encoded representation.
  associatedtype Input

  /// Decodes a value of `type` from `from`; throws if it cannot be decoded.
  func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

extension JSONEncoder: TopLevelEncoder {}
extension JSONDecoder: TopLevelDecoder {}
extension PropertyListEncoder: TopLevelEncoder {}
extension PropertyListDecoder: TopLevelDecoder {}

extension Publisher where Output: Encodable {
  /// Encodes every value with `encoder`.
  ///
  /// If encoding throws, the upstream is cancelled and the publisher fails with the error.
  ///
  /// ```swift
  /// let json = items.publisher.encode(encoder: JSONEncoder())   // Data per item
  /// ```
  @inlinable
  public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
    Publishers.Encode(upstream: self, encoder: encoder)
  }
}

extension Publisher {
  /// Decodes every value into an `Item` with `decoder`.
  ///
  /// If decoding throws, the upstream is cancelled and the publisher fails with the error.
  ///
  /// ```swift
  /// let items = payloads.decode(type: Item.self, decoder: JSONDecoder())
  /// ```
  @inlinable
  public func decode<Item: Decodable, Coder: TopLevelDecoder>(
    type: Item.Type, decoder: Coder
  ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
    Publishers.Decode(upstream: self, decoder: decoder)
  }
}

extension Publishers {
  /// A publisher that encodes its upstream's values with a top-level encoder.
  public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher
  where Upstream.Output: Encodable {
    public typealias Output = Coder.Output
    public typealias Failure = any Error

    /// The publisher whose values are encoded.
    public let upstream: Upstream
    /// The encoder applied to every value.
    public let encoder: Coder

    /// Creates a `Encode` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, encoder: Coder) {
      self.upstream = upstream
      self.encoder = encoder
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let encoder = self.encoder
      let logic = TryMapLogic<Upstream.Output, Output, Upstream.Failure> {
        try encoder.encode($0)
      }
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "Encode"))
    }
  }

  /// A publisher that decodes its upstream's values with a top-level decoder.
  public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
  where Upstream.Output == Coder.Input {
    public typealias Failure = any Error

    /// The publisher whose values are decoded.
    public let upstream: Upstream
    /// The decoder applied to every value.
    public let decoder: Coder

    /// Creates a `Decode` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, decoder: Coder) {
      self.upstream = upstream
      self.decoder = decoder
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let decoder = self.decoder
      let logic = TryMapLogic<Upstream.Output, Output, Upstream.Failure> {
        try decoder.decode(Output.self, from: $0)
      }
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "Decode"))
    }
  }
}
