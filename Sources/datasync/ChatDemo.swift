import Datasync
import DatasyncStreams
import Foundation
import Streams

/// One chat message as the demo stores it.
struct ChatMessage: Codable, Sendable {
  let author: String
  let text: String
}

/// `datasync demo`: a live chat room on the embedded database.
///
/// It seeds a room, starts `writers` clients pushing messages concurrently for `seconds`, and a
/// reader client whose Streams pipeline (`children(as:)` → `map` → `filter` → `sink`) keeps an
/// ordered, duplicate-free feed. It prints progress while it runs (messages stored, shown in the
/// feed, and how far the feed is behind) and a summary at the end, and returns whether the feed
/// matched the database.
struct ChatDemo {
  let options: DemoOptions

  func run() async throws -> Bool {
    let database = DatasyncDatabase()
    func client(_ name: String) -> DatasyncManager {
      WebcomApplication(
        configuration: WebcomConfiguration(identifier: name, backEnd: .embedded(database))
      ).datasyncService.createManager()
    }
    let seeder = client("seeder")
    let roomPath = "rooms/general/messages"
    let seedRoom = try seeder.nodeThrows(for: roomPath)
    var seed: [String: ChatMessage] = [:]
    for index in 0..<options.messages {
      seed[seedRoom.createChild().key.value] = ChatMessage(author: "seed", text: "message \(index)")
    }
    try await seedRoom.set(seed)
    print(
      "Room /\(roomPath) seeded with \(options.messages) messages; "
        + "\(options.writers) writers for \(options.seconds) s.")

    let readerRoom = try client("reader").nodeThrows(for: roomPath)
    let monitor = FeedMonitor()
    let feed = readerRoom.streams.children(as: ChatMessage.self)
      .map(FeedUpdate.init)
      .filter { $0.isInitialLoad || !$0.insertedKeys.isEmpty || $0.removedCount > 0 }
      .sink(
        receiveCompletion: { monitor.finish($0) },
        receiveValue: { monitor.record($0) })

    let deadline = ContinuousClock.now + .seconds(options.seconds)
    let stored = StoredCounter(seeded: options.messages)
    let writers = (0..<options.writers).map { index in
      let room = try? client("writer-\(index)").nodeThrows(for: roomPath)
      return Task {
        var sent = 0
        while ContinuousClock.now < deadline, let room {
          _ = try await room.push(ChatMessage(author: "writer-\(index)", text: "hello \(sent)"))
          stored.increment()
          sent += 1
        }
        return sent
      }
    }

    let start = ContinuousClock.now
    var previous = (time: start, figures: monitor.snapshot())
    repeat {
      try await Task.sleep(for: .milliseconds(500))
      let now = ContinuousClock.now
      let current = monitor.snapshot()
      let interval = seconds(now - previous.time)
      let rate = Double(current.liveInsertions - previous.figures.liveInsertions) / interval
      let storedNow = stored.count
      print(
        String(
          format: "  %5.1f s  stored: %7d  feed: %7d  behind: %6d  %8.0f new messages/s  "
            + "duplicates: %d",
          seconds(now - start), storedNow, current.feedCount, max(0, storedNow - current.feedCount),
          rate, current.duplicates))
      previous = (now, current)
    } while ContinuousClock.now < deadline
    var pushed = 0
    for writer in writers {
      pushed += try await writer.value
    }

    let writing = seconds(ContinuousClock.now - start)
    let storedCount = try await seedRoom.value().childrenCount
    let converged = await monitor.waitForFeed(count: storedCount, timeout: .seconds(10))
    feed.cancel()
    let final = monitor.snapshot(checkingKeys: true)
    let initial = final.initialLoad
    print("")
    print("Summary")
    print(
      "  messages in the database:     \(storedCount) (\(options.messages) seeded + \(pushed) pushed)"
    )
    print("  messages in the reader feed:  \(final.feedCount)")
    print("  duplicates seen:              \(final.duplicates)")
    print("  feed in key order:            \(final.isOrdered ? "yes" : "NO")")
    if let initial {
      print(
        String(
          format: "  initial load completed:       after %.1f ms, one emission of %d messages",
          initial.milliseconds, initial.count))
    } else {
      print("  initial load completed:       never")
    }
    print(
      "  live messages received:       \(final.liveInsertions) in \(final.emissions - 1) updates")
    print(
      String(
        format: "  write rate:                   %.0f messages/s stored and shown",
        Double(pushed) / max(writing, 0.001)))
    if let failure = final.failure {
      print("  stream failed:                \(failure)")
    }
    let succeeded =
      converged && final.duplicates == 0 && final.isOrdered && final.failure == nil
      && final.feedCount == storedCount
    print(succeeded ? "OK: the feed matches the database." : "FAILED: the feed does not match.")
    return succeeded
  }
}

/// The messages the writers stored (acknowledged by the database), with the seeded ones.
final class StoredCounter: @unchecked Sendable {
  private let lock = NSLock()
  // Protected by `lock`.
  private var total: Int

  init(seeded: Int) {
    total = seeded
  }

  func increment() {
    lock.withLock { total += 1 }
  }

  var count: Int { lock.withLock { total } }
}

/// A duration in seconds.
func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// What the reader's pipeline keeps of one emission of the children stream.
struct FeedUpdate {
  let feed: DatasyncChildren<ChatMessage>
  let insertedKeys: [WebcomKey]
  let removedCount: Int
  let isInitialLoad: Bool

  init(_ feed: DatasyncChildren<ChatMessage>) {
    self.feed = feed
    insertedKeys = feed.changes.inserted.map { feed[$0].key }
    removedCount = feed.changes.removed.count
    isInitialLoad = feed.changes.isInitialLoad
  }
}

/// The reader's view of its feed, updated by the sink and read by the progress loop.
final class FeedMonitor: @unchecked Sendable {
  struct Snapshot {
    var feedCount = 0
    var duplicates = 0
    var liveInsertions = 0
    var emissions = 0
    var isOrdered = true
    var initialLoad: (count: Int, milliseconds: Double)?
    var failure: WebcomError?
  }

  private let lock = NSLock()
  private let start = ContinuousClock.now
  // Protected by `lock`: the latest feed (the keys shown so far), and the running figures.
  private var latest: DatasyncChildren<ChatMessage>?
  private var figures = Snapshot()

  func record(_ update: FeedUpdate) {
    lock.withLock {
      if update.isInitialLoad {
        figures.initialLoad = (update.feed.count, seconds(ContinuousClock.now - start) * 1_000)
      } else {
        figures.liveInsertions += update.insertedKeys.count
      }
      // A key inserted while shown (in the previous feed and not removed by this update) is a
      // duplicate: the previous feed serves as the set of shown keys, so the monitor keeps no
      // copy of them.
      let removedKeys = Set(
        latest.map { feed in update.feed.changes.removed.map { feed[$0].key } } ?? [])
      for key in update.insertedKeys
      where latest?.index(forKey: key) != nil && !removedKeys.contains(key) {
        figures.duplicates += 1
      }
      figures.emissions += 1
      figures.feedCount = update.feed.count
      latest = update.feed
    }
  }

  func finish(_ completion: Subscribers.Completion<WebcomError>) {
    if case .failure(let error) = completion {
      lock.withLock { figures.failure = error }
    }
  }

  /// The running figures; with `checkingKeys`, also whether the latest feed is in key order and
  /// its duplicate keys (a pass over the whole feed, for the summary).
  func snapshot(checkingKeys: Bool = false) -> Snapshot {
    lock.withLock {
      var snapshot = figures
      if checkingKeys, let latest {
        // One pass, no copy of the keys: in a feed in key order, a duplicate sits next to its
        // twin.
        var previous: WebcomKey?
        var isSorted = true
        var adjacentTwins = 0
        for (key, _) in latest {
          if let previous {
            if key == previous { adjacentTwins += 1 } else if key < previous { isSorted = false }
          }
          previous = key
        }
        snapshot.isOrdered = isSorted && adjacentTwins == 0
        snapshot.duplicates +=
          isSorted ? adjacentTwins : latest.count - Set(latest.lazy.map(\.key)).count
      }
      return snapshot
    }
  }

  /// Waits until the feed holds `count` messages; false if it does not within `timeout`.
  func waitForFeed(count: Int, timeout: Duration) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if lock.withLock({ figures.feedCount }) == count { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return lock.withLock { figures.feedCount } == count
  }
}
