/// Why a marble diagram could not be parsed: a code, the position (a character offset) and a
/// message naming the culprit.
public struct MarbleError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The kinds of malformed diagrams.
  public enum Code: String, Sendable {
    /// `[` without a matching `]`.
    case unclosedGroup
    /// `]` without a matching `[`.
    case unopenedGroup
    /// `[` inside a group.
    case nestedGroup
    /// `[]`.
    case emptyGroup
    /// `-` inside a group.
    case tickInGroup
    /// An event after `|` or `#`.
    case eventAfterCompletion
    /// A value character missing from the values dictionary.
    case unknownValue
  }

  /// What is wrong.
  public let code: Code
  /// The offset of the culprit character in the diagram.
  public let position: Int
  /// A human-readable explanation naming the culprit.
  public let message: String

  /// An error of kind `code` at `position`.
  public init(code: Code, position: Int, message: String) {
    self.code = code
    self.position = position
    self.message = message
  }

  public var description: String { "MarbleError.\(code.rawValue) at \(position): \(message)" }
}
