/// Bytes queued in order and taken from the front: what a connection received and has not parsed
/// yet, or what it must send and has not written yet.
///
/// Taking bytes only moves an index; the space they used is reclaimed when more than half of the
/// storage is taken and more bytes arrive, or all at once when the queue empties.
struct ByteQueue {
  private var storage: [UInt8] = []
  private var head = 0
  /// The largest allocation kept when the queue empties; a larger one is released.
  private let retainedCapacity: Int

  /// An empty queue that keeps up to `retainedCapacity` bytes of storage when it empties.
  init(retainedCapacity: Int) {
    self.retainedCapacity = retainedCapacity
  }

  /// The number of bytes queued and not taken.
  var count: Int { storage.count - head }

  /// Whether every queued byte has been taken.
  var isEmpty: Bool { head == storage.count }

  /// Queues bytes after those already queued.
  mutating func append(_ bytes: some Collection<UInt8>) {
    if head > 0 && head >= storage.count / 2 {
      storage.removeSubrange(0..<head)
      head = 0
    }
    storage.append(contentsOf: bytes)
  }

  /// Takes `count` bytes from the front.
  mutating func consume(_ count: Int) {
    head += count
    if head == storage.count { discardAll() }
  }

  /// Drops every queued byte; releases an allocation larger than the retained capacity.
  mutating func discardAll() {
    storage.removeAll(keepingCapacity: storage.capacity <= retainedCapacity)
    head = 0
  }

  /// Calls `body` with the bytes queued and not taken.
  func withQueuedBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    storage.withUnsafeBufferPointer { all in
      body(UnsafeBufferPointer(rebasing: all[head...]))
    }
  }
}
