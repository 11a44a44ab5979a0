import Streams
import Testing

@Suite struct AnyCancellableTests {
  final class Counter: @unchecked Sendable {
    var count = 0
  }

  @Test func cancelsOnceExplicitly() {
    let counter = Counter()
    let cancellable = AnyCancellable { counter.count += 1 }
    cancellable.cancel()
    cancellable.cancel()
    #expect(counter.count == 1)
  }

  @Test func cancelsOnDeinit() {
    let counter = Counter()
    do {
      _ = AnyCancellable { counter.count += 1 }
    }
    #expect(counter.count == 1)
  }

  @Test func storesInSetAndArray() {
    let counter = Counter()
    var set = Set<AnyCancellable>()
    var array: [AnyCancellable] = []
    AnyCancellable { counter.count += 1 }.store(in: &set)
    AnyCancellable { counter.count += 10 }.store(in: &array)
    #expect(set.count == 1)
    #expect(array.count == 1)
    set.removeAll()
    array.removeAll()
    #expect(counter.count == 11)
  }

  @Test func wrapsAnotherCancellable() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in }, receiveValue: { received.append($0) })
    subject.subscribe(sink)
    var set = Set<AnyCancellable>()
    sink.store(in: &set)
    subject.send(1)
    set.removeAll()
    subject.send(2)
    #expect(received == [1])
  }
}
