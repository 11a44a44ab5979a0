import Datasync
import DatasyncStreams
import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct ConcurrentChildrenTests {
  @Test func concurrentWritersNeverProduceDuplicatesAndTheFeedConverges() async throws {
    let application = makeApplication()
    let manager = application.datasyncService.createManager()
    let messages = try #require(manager.node(for: "rooms/busy/messages"))
    _ = try await seedMessages(100, at: messages)
    let recorder = RecordingSubscriber<DatasyncChildren<Message>, WebcomError>(
      initialDemand: .max(1), demandPerValue: .max(1))
    messages.streams.children(as: Message.self).subscribe(recorder)

    let writers = 4
    let perWriter = 50
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<writers {
        group.addTask {
          for index in 0..<perWriter {
            _ = try? await messages.push(Message(author: "w\(writer)", text: "\(index)"))
          }
        }
      }
    }
    let total = 100 + writers * perWriter
    #expect(await eventually { recorder.values.last?.count == total })
    let emissions = recorder.values
    #expect(emissions.first?.changes.isInitialLoad == true)
    #expect(emissions.dropFirst().allSatisfy { !$0.changes.isInitialLoad })
    for emission in emissions {
      #expect(Set(emission.keys).count == emission.count)
    }
    let final = try #require(emissions.last)
    let stored = try await messages.value().asDictionary() ?? [:]
    #expect(final.keys.map(\.value) == stored.keys.sorted())
    #expect(recorder.violations.isEmpty)
    recorder.cancel()
  }
}
