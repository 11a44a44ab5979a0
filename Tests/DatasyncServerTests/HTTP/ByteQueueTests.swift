import Testing

@testable import DatasyncServer

@Suite struct ByteQueueTests {
  private func queued(_ queue: ByteQueue) -> [UInt8] {
    queue.withQueuedBytes { Array($0) }
  }

  @Test func bytesComeOutInOrderAcrossAppendsAndPartialTakes() {
    var queue = ByteQueue(retainedCapacity: 16)
    queue.append(Array(0..<10))
    queue.consume(3)
    #expect(queued(queue) == Array(3..<10))
    // More than half was taken: the next append reclaims the front without losing a byte.
    queue.consume(3)
    queue.append(Array(10..<14))
    #expect(queue.count == 8)
    #expect(queued(queue) == Array(6..<14))
  }

  @Test func takingEveryByteEmptiesTheQueue() {
    var queue = ByteQueue(retainedCapacity: 16)
    #expect(queue.isEmpty)
    queue.append([1, 2, 3])
    #expect(!queue.isEmpty)
    queue.consume(3)
    #expect(queue.isEmpty)
    #expect(queue.count == 0)
    queue.append([4])
    #expect(queued(queue) == [4])
  }

  @Test func discardingDropsEverythingQueued() {
    var queue = ByteQueue(retainedCapacity: 4)
    queue.append(Array(repeating: 7, count: 1_000))
    queue.consume(10)
    queue.discardAll()
    #expect(queue.isEmpty)
    #expect(queued(queue).isEmpty)
  }
}
