import Streams
import Testing

@Suite struct JustSubscribersTests {
  /// One event a `sink` saw, in the order it saw them.
  private enum Event: Equatable {
    case value(Int)
    case finished
  }

  private final class Target {
    var title = ""
  }

  /// Sinks `publisher` through the general `Publisher.sink`, which subscribes.
  private func sinkThroughASubscription<P: Publisher>(
    _ publisher: P, into events: @escaping (Event) -> Void
  ) -> AnyCancellable where P.Output == Int, P.Failure == Never {
    publisher.sink(
      receiveCompletion: { _ in events(.finished) }, receiveValue: { events(.value($0)) })
  }

  @Test func sinkOnJustDeliversTheValueThenFinishesBeforeReturningAsThroughASubscription() {
    var direct: [Event] = []
    let cancellable = Just(7).sink(
      receiveCompletion: { _ in direct.append(.finished) },
      receiveValue: { direct.append(.value($0)) })
    #expect(direct == [.value(7), .finished])

    var subscribed: [Event] = []
    let general = sinkThroughASubscription(Just(7)) { subscribed.append($0) }
    #expect(direct == subscribed)

    // Both cancellables have nothing left to cancel, and each is an object of its own.
    cancellable.cancel()
    general.cancel()
    #expect(direct == [.value(7), .finished])
    #expect(cancellable != general)
  }

  @Test func sinkOnJustTakesClosuresThatDoNotEscape() {
    var received: [Int] = []
    func deliver(_ body: (Int) -> Void) -> AnyCancellable {
      Just(3).map { $0 * 2 }.sink(receiveValue: body)
    }
    var cancellables = Set<AnyCancellable>()
    deliver { received.append($0) }.store(in: &cancellables)
    deliver { received.append($0 + 1) }.store(in: &cancellables)
    #expect(received == [6, 7])
    #expect(cancellables.count == 2)
  }

  @Test func assignOnJustWritesTheValueAndDoesNotKeepTheObject() {
    var target: Target? = Target()
    weak let watched = target
    let cancellable = Just("done").assign(to: \.title, on: target!)
    #expect(target?.title == "done")
    target = nil
    #expect(watched == nil)
    withExtendedLifetime(cancellable) {}
  }
}
