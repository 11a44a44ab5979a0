/// Waits until `condition` holds, checking every millisecond, for at most ten seconds; the
/// walkthroughs use it to wait for what their subscriptions show.
///
/// - Throws: `CancellationError` when ten seconds pass first.
func waitUntil(_ condition: () -> Bool) async throws {
  let deadline = ContinuousClock.now + .seconds(10)
  while !condition() {
    guard ContinuousClock.now < deadline else {
      throw CancellationError()
    }
    try await Task.sleep(for: .milliseconds(1))
  }
}
