/// The bytes received on a connection and not yet parsed.
struct InputBuffer {
  private var storage: [UInt8] = []
  private var readIndex = 0

  /// The number of unparsed bytes.
  var count: Int { storage.count - readIndex }

  /// Whether every received byte has been parsed.
  var isEmpty: Bool { readIndex == storage.count }

  /// Appends received bytes.
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if readIndex > 0 && readIndex >= storage.count / 2 {
      storage.removeSubrange(0..<readIndex)
      readIndex = 0
    }
    storage.append(contentsOf: bytes)
  }

  /// Marks `count` bytes as parsed.
  mutating func consume(_ count: Int) {
    readIndex += count
    if readIndex == storage.count { discardAll() }
  }

  /// Drops every unparsed byte; releases a large allocation.
  mutating func discardAll() {
    storage.removeAll(keepingCapacity: storage.capacity <= 16_384)
    readIndex = 0
  }

  /// Calls `body` with the unparsed bytes.
  func withUnparsedBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    storage.withUnsafeBufferPointer { all in
      body(UnsafeBufferPointer(rebasing: all[readIndex...]))
    }
  }
}
