/// The one error type of the Streams tests: upstreams fail with it, and tests compare it.
///
/// Distinct codes tell failures apart; the named ones read well where a test needs a single
/// failure (`.boom`) or the failure of a timeout or of a full buffer.
struct TestError: Error, Equatable, CustomStringConvertible {
  let code: Int
  var description: String { "TestError(\(code))" }

  /// A failure, when a test needs just one.
  static let boom = TestError(code: 100)
  /// The failure a timeout ends with.
  static let timedOut = TestError(code: 101)
  /// The failure a full buffer ends with.
  static let full = TestError(code: 102)
}
