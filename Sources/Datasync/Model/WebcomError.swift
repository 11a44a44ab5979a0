import Foundation

/// The error reported by every failing operation of the Datasync API.
///
/// An error carries a ``Code`` that programs can switch over and a human-readable message that
/// names the culprit (the offending path, key, value or operation) and the reason.
///
/// ```swift
/// do {
///   _ = try manager.nodeThrows(for: "rooms/#general")
/// } catch let error as WebcomError where error.code == .invalidPath {
///   print(error.message)  // the path "rooms/#general" is invalid: ...
/// }
/// ```
public struct WebcomError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
  /// The kinds of failure the Datasync API can report.
  public enum Code: String, Sendable, CaseIterable {
    /// A path is ill-formed: a forbidden character, more than 32 levels or more than 768 bytes.
    case invalidPath
    /// A key is ill-formed: empty, a forbidden character or more than 768 bytes.
    case invalidKey
    /// A value cannot be stored: NaN, an infinity, a forbidden key or nesting too deep.
    case invalidValue
    /// An argument is out of its domain: a children constraint's limit below 1, a subscription
    /// asking for no event, a merge of a value that is not an object.
    case invalidArgument
    /// A value could not be encoded to JSON by the application's encoder.
    case encodingFailed
    /// A value could not be decoded by the application's decoder; the message gives the reason.
    case decodingFailed
    /// An increment was applied to a value that is not a number.
    case notANumber
    /// The back end denied the operation; a denied write has been reverted locally, a denied
    /// subscription is revoked with this error.
    case permissionDenied
    /// The back end refused a transaction's write because the value had changed since the
    /// transaction function ran. The transaction runs the function again with the new value, so
    /// this code reaches an application only through a connection's own messages; after too
    /// many conflicts the transaction fails with ``transactionTooManyRetries``.
    case transactionAborted
    /// A transaction kept conflicting with concurrent writes and gave up.
    case transactionTooManyRetries
    /// A write was cancelled before it reached the back end, so it was not applied: the service
    /// was released while the write was queued (for example while the connection was disabled).
    case writeCancelled
    /// The operation needs the back end and cannot reach it: a read that the cache cannot answer
    /// while the connection is disabled, or a request the back end had not answered when the
    /// service was released.
    case disconnected
    /// The durable storage of a database failed: SQLite's runtime library could not be loaded,
    /// the database file could not be opened, is not a Datasync database or is corrupt, or a
    /// write could not be committed. The message names the library or the file and the reason.
    case storageFailed
    /// An unexpected failure of the system under the library: a socket, a pipe or a thread the
    /// server could not create. The message names the call and the system's reason.
    case internalError
  }

  /// What kind of failure this is.
  public let code: Code
  /// A sentence naming the culprit and the reason.
  public let message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: The kind of failure.
  ///   - message: A sentence naming the culprit and the reason.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The code and the message, for example `invalidPath: the path "a#b" is invalid: ...`.
  public var description: String { "\(code.rawValue): \(message)" }

  /// The same text as ``description``.
  public var errorDescription: String? { description }
}
