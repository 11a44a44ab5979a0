/// A failure for tests.
enum TestFailure: Error, Equatable {
  case boom
  case timedOut
  case full
}
