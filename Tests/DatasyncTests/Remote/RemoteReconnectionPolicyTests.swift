import Testing

@testable import Datasync

@Suite struct RemoteReconnectionPolicyTests {
  @Test func growsExponentiallyUpToTheCap() {
    let policy = RemoteReconnectionPolicy(
      initialDelay: 0.5, maximumDelay: 5, multiplier: 2, jitter: 0)
    #expect(
      (0...7).map { policy.delay(afterFailures: $0, random: 0.7) } == [
        0, 0.5, 1, 2, 4, 5, 5, 5,
      ])
    #expect(policy.delay(afterFailures: 10_000, random: 0) == 5)
  }

  @Test func jitterRemovesUpToItsShareOfTheBase() {
    let policy = RemoteReconnectionPolicy(
      initialDelay: 1, maximumDelay: 8, multiplier: 2, jitter: 0.5)
    #expect(policy.delay(afterFailures: 3, random: 0) == 4)
    #expect(policy.delay(afterFailures: 3, random: 0.5) == 3)
    #expect(policy.delay(afterFailures: 3, random: 0.999_999) > 2)
  }

  @Test func clampsArguments() {
    let policy = RemoteReconnectionPolicy(
      initialDelay: -1, maximumDelay: -2, multiplier: 0.5, jitter: 3)
    #expect(policy.initialDelay == 0)
    #expect(policy.maximumDelay == 0)
    #expect(policy.multiplier == 1)
    #expect(policy.jitter == 1)
  }
}
