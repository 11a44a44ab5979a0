import Datasync
import DatasyncStreams
import Foundation
import Streams
import StreamsTesting

/// The code of the README's tour, compiled and run: a test checks that every Swift block of the
/// README appears in this file, and runs it.
enum ReadmeTour: Walkthrough {
  static let name = "readme-tour"
  static let summary = "The README's tour, run: callbacks, async/await, streams, loops, testing"

  struct Message: Codable, Sendable {
    let author: String
    let text: String
  }

  static func run(output: WalkthroughOutput) async throws {
    let application = WebcomApplication(configuration: WebcomConfiguration(identifier: "tour"))
    try await callbacks(application, print: output.callAsFunction)
    try await asyncAwait(application, print: output.callAsFunction)
    try await operatorChain(application, print: output.callAsFunction)
    try await forAwaitLoop(application, print: output.callAsFunction)
    virtualTime(print: output.callAsFunction)
    virtualTimeForAService(print: output.callAsFunction)
  }

  static func callbacks(
    _ application: WebcomApplication, print: @escaping @Sendable (String) -> Void
  )
    async throws
  {
    let queue = DispatchQueue(label: "tour")
    let done = DispatchSemaphore(value: 0)

    let manager = application.datasyncService.createManager()
    let messages = manager / "rooms/lobby/messages"
    messages?.subscribe(
      to: .childAddition, queue: queue,
      onEvent: { event in print("new message: \(event.value.asString ?? "?")") })
    messages?.push("Hello!", queue: queue) { result in
      if case .failure(let error) = result { print("push failed: \(error)") }
      done.signal()
    }

    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        done.wait()
        queue.async { continuation.resume() }
      }
    }
    manager.unsubscribeFromAll()
  }

  static func asyncAwait(_ application: WebcomApplication, print: (String) -> Void) async throws {
    let manager = application.datasyncService.createManager()
    let profile = try manager.nodeThrows(for: "users/ada/profile")
    try await profile.set(["name": "Ada", "language": "Swift"])
    try await profile.merge(with: ["city": "London"])
    let name = try await profile.relativeNodeThrows(for: "name").value().asString
    let visits = try await profile.relativeNodeThrows(for: "visits").increment()
    print("\(name ?? "?") has \(visits.asInt ?? 0) visit")
  }

  static func operatorChain(
    _ application: WebcomApplication, print: @escaping @Sendable (String) -> Void
  )
    async throws
  {
    let manager = application.datasyncService.createManager()
    let room = try manager.nodeThrows(for: "rooms/general/messages")
    try await room.push(Message(author: "ada", text: "Hi"))
    try await room.push(Message(author: "alan", text: "Hello"))
    let finished = DispatchSemaphore(value: 0)

    let cancellable = room.streams.children(as: Message.self)
      .map { feed in feed.map(\.value.text) }
      .removeDuplicates()
      .first()
      .sink(
        receiveCompletion: { _ in finished.signal() },
        receiveValue: { texts in print("\(texts.count) messages, complete: \(texts)") })

    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        finished.wait()
        continuation.resume()
      }
    }
    cancellable.cancel()
  }

  static func forAwaitLoop(_ application: WebcomApplication, print: (String) -> Void) async throws {
    let room = try application.datasyncService.createManager().nodeThrows(for: "rooms/loop")
    try await room.push(Message(author: "ada", text: "first"))
    try await room.push(Message(author: "alan", text: "second"))

    for try await event in room.streams.events(to: .childAddition).values {
      let message = try event.value.decodedThrows(as: Message.self)
      print("\(message.author): \(message.text)")
      if message.text == "second" { break }
    }
  }

  static func virtualTime(print: @escaping (String) -> Void) {
    let scheduler = TestScheduler()
    let input = PassthroughSubject<String, Never>()
    let debounced = input.debounce(for: .milliseconds(300), scheduler: scheduler)
    let cancellable = debounced.sink { query in print("search '\(query)' at \(scheduler.now)") }

    input.send("s")
    scheduler.advance(by: .milliseconds(100))
    input.send("sw")
    scheduler.advance(by: .milliseconds(100))
    input.send("swift")
    scheduler.advance(by: .seconds(1))
    cancellable.cancel()
  }

  static func virtualTimeForAService(print: @escaping (String) -> Void) {
    final class Autocomplete {
      private let input = PassthroughSubject<String, Never>()
      let suggestions: AnyPublisher<String, Never>

      init(scheduler: AnySchedulerOf<DispatchQueue> = .main) {
        suggestions = input.debounce(for: .milliseconds(300), scheduler: scheduler)
          .eraseToAnyPublisher()
      }

      func type(_ text: String) { input.send(text) }
    }

    // In the app: Autocomplete(); in its test, the same code on virtual time:
    let scheduler = DispatchQueue.test
    let autocomplete = Autocomplete(scheduler: scheduler.eraseToAnyScheduler())
    let cancellable = autocomplete.suggestions.sink { print("suggest '\($0)'") }

    autocomplete.type("sw")
    scheduler.advance(by: .milliseconds(299))  // nothing yet
    autocomplete.type("swift")
    scheduler.advance(by: .milliseconds(300))  // suggest 'swift'
    cancellable.cancel()
  }
}
