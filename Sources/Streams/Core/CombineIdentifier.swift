import Synchronization

/// A unique identifier of a subscriber or subscription, used to tell them apart in logs and sets.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline internal let rawValue: UInt64

  /// A new identifier, distinct from every other made by `init()` in this process.
  ///
  /// Inlinable, so that a subscriber made for every operator of a chain takes its number with one
  /// atomic add where it is built instead of two calls into this module.
  @inlinable
  public init() {
    rawValue = combineIdentifierCounter.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// The identifier of an object: equal for the same instance.
  public init(_ object: AnyObject) {
    rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(object).hashValue)) | (1 << 63)
  }

  public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// The process-wide counter behind `CombineIdentifier()`: the last number handed out.
@usableFromInline
internal let combineIdentifierCounter = Atomic<UInt64>(0)

/// A type that carries a `CombineIdentifier`.
public protocol CustomCombineIdentifierConvertible {
  /// The identifier of this instance.
  var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
  /// The identity of the object.
  public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}
