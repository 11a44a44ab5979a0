import Foundation

/// A date stored in a Datasync tree, with millisecond precision.
///
/// A `WebcomDate` encodes as the number of milliseconds since 1970 (an integer), whatever the
/// date strategy of the application's `JSONEncoder`. The ``backEndCurrentDate`` placeholder
/// encodes as the server-value object `{".sv": "timestamp"}`, which the back end replaces with
/// its own clock when it applies the write (until then the local cache holds an estimate).
///
/// ```swift
/// struct Message: Codable { var text: String; var sent: WebcomDate }
/// try await node.push(Message(text: "hi", sent: .backEndCurrentDate))
/// ```
public struct WebcomDate: Codable, Sendable, Equatable {
  /// The placeholder replaced with the back end's clock at write time.
  public static let backEndCurrentDate = WebcomDate(milliseconds: nil)

  /// Milliseconds since 1970, `nil` for the placeholder.
  let milliseconds: Int64?

  private init(milliseconds: Int64?) {
    self.milliseconds = milliseconds
  }

  /// Creates a date, rounded to the nearest millisecond.
  public init(_ date: Date) {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    self.milliseconds =
      milliseconds.isFinite ? Int64(max(min(milliseconds, 9e18), -9e18)) : 0
  }

  /// The date; for ``backEndCurrentDate``, the current local date.
  public var value: Date {
    guard let milliseconds else { return Date() }
    return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// Whether this is the ``backEndCurrentDate`` placeholder.
  public var isBackEndCurrentDate: Bool { milliseconds == nil }

  private enum ServerValueKey: String, CodingKey {
    case serverValue = ".sv"
  }

  /// The server-value name of the back end's clock.
  static let serverTimestampName = "timestamp"

  /// Decodes milliseconds since 1970 (an integer or a floating number), or the placeholder
  /// object `{".sv": "timestamp"}`.
  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: ServerValueKey.self) {
      let name = try container.decode(String.self, forKey: .serverValue)
      guard name == WebcomDate.serverTimestampName else {
        throw DecodingError.dataCorruptedError(
          forKey: .serverValue, in: container,
          debugDescription: "unknown server value \"\(name)\"")
      }
      self.init(milliseconds: nil)
      return
    }
    let container = try decoder.singleValueContainer()
    if let milliseconds = try? container.decode(Int64.self) {
      self.init(milliseconds: milliseconds)
    } else {
      let milliseconds = try container.decode(Double.self)
      self.init(Date(timeIntervalSince1970: milliseconds / 1000))
    }
  }

  /// Encodes milliseconds since 1970 as an integer, or the placeholder object.
  public func encode(to encoder: any Encoder) throws {
    if let milliseconds {
      var container = encoder.singleValueContainer()
      try container.encode(milliseconds)
    } else {
      var container = encoder.container(keyedBy: ServerValueKey.self)
      try container.encode(WebcomDate.serverTimestampName, forKey: .serverValue)
    }
  }
}
