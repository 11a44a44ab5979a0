import Foundation

/// Encodes `Encodable` values straight into the value model, with the strategies of an
/// application's `JSONEncoder`.
///
/// The result is the one `JSONEncoder` text parsed into the value model would give, without the
/// text: date, data, key and non-conforming-float strategies apply (`.custom` closures are called
/// with this encoder), `userInfo` is passed on, `Date`, `Data`, `URL` (its `absoluteString`),
/// `Decimal` and dictionaries keyed by `String` (keys kept as they are, whatever the key strategy)
/// are encoded as `JSONEncoder` encodes them. Numbers are those of the encoder's text: integral
/// floating numbers that `JSONEncoder` writes without a fraction (`3.0` as `3`, up to 2^53) are
/// stored as integers, other numbers as `Double`; integers out of the `Int64` range become
/// `Double`. The value is normalised as it is built: nulls are dropped, empty objects vanish,
/// arrays become objects keyed `"0"`, `"1"`, …; a key encoded twice keeps its last value.
///
/// Depth is checked as the value is encoded: writing a key more than 32 levels below the top
/// fails at once, before the nested value's `encode(to:)` runs, so a deeply recursive value
/// fails quickly instead of exhausting the stack. `encode(to:)` calls nested more than
/// ``maximumNesting`` deep (single-value wrappers of wrappers, which add no level) fail too.
struct ValueEncoder {
  /// The deepest chain of nested `encode(to:)` calls accepted: eight per level of the deepest
  /// value, far more than wrappers need, far less than would exhaust a thread's stack.
  static let maximumNesting = 8 * JSONValue.maximumDepth

  /// The members of a value encoded for a merge: its top-level keys as encoded (not validated:
  /// they may be paths) with their normalised values, nulls kept; or the value itself when it is
  /// not an object nor an array.
  enum Members {
    case members([(key: WebcomKey, value: JSONValue)])
    case other(JSONValue)
  }

  private let options: ValueEncoderOptions

  /// An encoder with the strategies and `userInfo` of `configuration`, read now.
  init(configuration: JSONEncoder) {
    options = ValueEncoderOptions(configuration)
  }

  /// Encodes a value into the value model.
  ///
  /// - Throws: ``WebcomError`` with code `invalidValue` for NaN or an infinity (unless the
  ///   encoder's `nonConformingFloatEncodingStrategy` turns them into strings) or nesting deeper
  ///   than 32 levels, `invalidKey` for a key that cannot be stored, `encodingFailed` when the
  ///   value encodes nothing, misuses the encoder or throws another error; each message names
  ///   the key path.
  func encode<T: Encodable>(_ value: T) throws(WebcomError) -> JSONValue {
    let root = try encodeRoot(value, keepsMembers: false)
    do {
      return try root.finishedValue()
    } catch {
      throw Self.webcomError(error, type: T.self)
    }
  }

  /// Encodes a value for a merge: the members of an object (or the elements of an array, keyed
  /// `"0"`, `"1"`, …) with their keys as encoded and explicit nulls kept, in one pass.
  ///
  /// - Throws: as ``encode(_:)``, except that top-level keys are not validated.
  func encodeMembers<T: Encodable>(_ value: T) throws(WebcomError) -> Members {
    let root = try encodeRoot(value, keepsMembers: true)
    do {
      if let members = try root.finishedMembers() { return .members(members) }
      return .other(try root.finishedValue())
    } catch {
      throw Self.webcomError(error, type: T.self)
    }
  }

  private func encodeRoot<T: Encodable>(_ value: T, keepsMembers: Bool) throws(WebcomError)
    -> ValueEncoding
  {
    let session = ValueEncodingSession(options: options, rootType: T.self)
    let root = ValueEncoding(session: session, path: nil, keepsMembers: keepsMembers)
    do {
      try root.encodeTopLevel(value)
    } catch {
      throw Self.webcomError(error, type: T.self)
    }
    if let misuse = session.misuse { throw misuse }
    return root
  }

  private static func webcomError(_ error: any Error, type: Any.Type) -> WebcomError {
    switch error {
    case let error as WebcomError:
      return error
    case let error as EncodingError:
      return WebcomError(encodingError: error, type: type)
    default:
      return WebcomError(.encodingFailed, "encoding a value of type \(type) failed: \(error)")
    }
  }
}
