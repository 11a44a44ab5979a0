extension Publisher {
  /// Writes a line for every event to `stream` (standard output if nil), then passes the event
  /// on unchanged.
  ///
  /// Lines read `receive subscription: (...)`, `request unlimited`, `request max: (n)`,
  /// `request max: (n) (synchronous)` for demand returned from a value, `receive value: (...)`,
  /// `receive finished`, `receive error: (...)` and `receive cancel`, each after `prefix: ` when
  /// a prefix is given. Lines written from several threads are written one at a time, in order,
  /// with no lock held while writing.
  ///
  /// ```swift
  /// let cancellable = [1].publisher.print("numbers").sink { _ in }
  /// // numbers: receive subscription: (...)
  /// // numbers: request unlimited
  /// // numbers: receive value: (1)
  /// // numbers: receive finished
  /// ```
  @inlinable
  public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil)
    -> Publishers.Print<Self>
  {
    Publishers.Print(upstream: self, prefix: prefix, to: stream)
  }
}

extension Publishers {
  /// A publisher that writes a line for each of its events.
  public struct Print<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose events are written.
    public let upstream: Upstream
    /// Text put before every line.
    public let prefix: String
    /// Where lines go; standard output if nil.
    public let stream: (any TextOutputStream)?

    /// Creates a `Print` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
      self.upstream = upstream
      self.prefix = prefix
      self.stream = stream
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let writer = LineWriter(prefix: prefix, stream: stream)
      let hooks = EventHooks<Output, Failure>(
        subscription: { writer.write("receive subscription: (\($0))") },
        output: { writer.write("receive value: (\($0))") },
        completion: { completion in
          switch completion {
          case .finished: writer.write("receive finished")
          case .failure(let error): writer.write("receive error: (\(error))")
          }
        },
        cancel: { writer.write("receive cancel") },
        request: { writer.write("request \(Self.describe($0))") },
        returnedDemand: { writer.write("request \(Self.describe($0)) (synchronous)") })
      upstream.receive(
        subscriber: ObservingSubscriber(downstream: subscriber, hooks: hooks, name: "Print"))
    }

    private static func describe(_ demand: Subscribers.Demand) -> String {
      demand.max.map { "max: (\($0))" } ?? "unlimited"
    }
  }
}

/// Writes lines to a stream one at a time: the thread that finds no write in progress writes,
/// with the lock released, every line queued until the queue is empty.
private final class LineWriter {
  private let prefix: String
  private let lock = StreamsLock()
  // Protected by `lock`: the queued lines and whether a thread is writing. `stream` belongs to the
  // writing thread, handed over through `isWriting` under the lock.
  private var queued: [String] = []
  private var isWriting = false
  private var stream: (any TextOutputStream)?

  init(prefix: String, stream: (any TextOutputStream)?) {
    self.prefix = prefix.isEmpty ? "" : prefix + ": "
    self.stream = stream
  }

  func write(_ line: String) {
    lock.lock()
    queued.append(prefix + line)
    if isWriting {
      lock.unlock()
      return
    }
    isWriting = true
    while !queued.isEmpty {
      let lines = queued
      queued = []
      lock.unlock()
      for line in lines {
        if stream == nil {
          Swift.print(line)
        } else {
          stream?.write(line + "\n")
        }
      }
      lock.lock()
    }
    isWriting = false
    lock.unlock()
  }
}
