/// The answers of a client's requests waiting for the back end, by request identifier: in an
/// array in increasing identifier order (identifiers are made in that order), without hashing,
/// which takes about 32 bytes per waiting answer instead of a hash table's 50 or so.
///
/// Answers usually come in the order of their requests: the answered ones at the front leave
/// the storage at once, and those answered out of order leave a hole until the ones before them
/// go.
struct WaitingAnswers {
  private struct Entry {
    let identifier: RequestIdentifier
    var answer: DatasyncClient.WaitingAnswer?
  }

  /// The capacity up to which the storage is kept when the last waiting answer goes.
  private static let keptCapacity = 64

  private var entries: [Entry] = []
  /// The index of the first entry that may still hold an answer.
  private var start = 0

  /// The identifiers of the waiting answers, in increasing order.
  var identifiers: [RequestIdentifier] {
    entries[start...].compactMap { $0.answer == nil ? nil : $0.identifier }
  }

  /// Adds the answer of a request, replacing any answer waiting under the same identifier.
  mutating func insert(_ answer: DatasyncClient.WaitingAnswer, for identifier: RequestIdentifier) {
    guard let last = entries.last, last.identifier >= identifier else {
      entries.append(Entry(identifier: identifier, answer: answer))
      return
    }
    let index = position(of: identifier)
    if index < entries.count && entries[index].identifier == identifier {
      entries[index].answer = answer
    } else {
      entries.insert(Entry(identifier: identifier, answer: answer), at: index)
    }
  }

  /// Takes the answer of a request; nil when none waits for it.
  mutating func remove(_ identifier: RequestIdentifier) -> DatasyncClient.WaitingAnswer? {
    let index = position(of: identifier)
    guard index < entries.count, entries[index].identifier == identifier,
      let answer = entries[index].answer
    else { return nil }
    entries[index].answer = nil
    while start < entries.count && entries[start].answer == nil { start += 1 }
    if start == entries.count {
      entries.removeAll(keepingCapacity: entries.capacity <= Self.keptCapacity)
      start = 0
    } else if start > Self.keptCapacity && start * 2 > entries.count {
      entries.removeFirst(start)
      start = 0
    }
    return answer
  }

  /// The index of the first entry from `start` whose identifier is not below `identifier`.
  private func position(of identifier: RequestIdentifier) -> Int {
    var low = start
    var high = entries.count
    while low < high {
      let middle = low + (high - low) / 2
      if entries[middle].identifier < identifier { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
