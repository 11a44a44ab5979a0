/// The bytes queued for a connection's socket and not yet written.
struct OutputBuffer {
  private var storage: [UInt8] = []
  private var writeIndex = 0

  /// The number of bytes still to write.
  var count: Int { storage.count - writeIndex }

  /// Whether everything queued has been written.
  var isEmpty: Bool { writeIndex == storage.count }

  /// Queues bytes after those already queued.
  mutating func append(_ bytes: some Collection<UInt8>) {
    if writeIndex > 0 && writeIndex >= storage.count / 2 {
      storage.removeSubrange(0..<writeIndex)
      writeIndex = 0
    }
    storage.append(contentsOf: bytes)
  }

  /// Marks `count` bytes as written.
  mutating func consume(_ count: Int) {
    writeIndex += count
    if writeIndex == storage.count { discardAll() }
  }

  /// Drops everything queued; releases a large allocation.
  mutating func discardAll() {
    storage.removeAll(keepingCapacity: storage.capacity <= 65_536)
    writeIndex = 0
  }

  /// Calls `body` with the bytes still to write.
  func withUnwrittenBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    storage.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[writeIndex...])) }
  }
}
