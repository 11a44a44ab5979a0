/// A publisher that replays a recorded list of values and a completion to each subscriber.
///
/// Values are delivered as the subscriber asks for them, then the completion (a failure follows
/// the last value without waiting for demand). A record encodes and decodes when its values and
/// failure do, in Combine's form (`recording`, holding `output` and `completion`).
///
/// ```swift
/// let record = Record<Int, Never> { recording in
///   recording.receive(1)
///   recording.receive(2)
///   recording.receive(completion: .finished)
/// }
/// let cancellable = record.sink { print($0) }   // 1, 2
/// ```
public struct Record<Output, Failure: Error>: Publisher {
  /// The values and completion replayed.
  public let recording: Recording

  /// A record filled by `record`, which receives an empty recording.
  public init(record: (inout Recording) -> Void) {
    var recording = Recording()
    record(&recording)
    self.recording = recording
  }

  /// A record of `recording`.
  public init(recording: Recording) {
    self.recording = recording
  }

  /// A record of `output` followed by `completion`.
  public init(output: [Output], completion: Subscribers.Completion<Failure>) {
    recording = Recording(output: output, completion: completion)
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let values = Publishers.Sequence<[Output], Failure>(sequence: recording.output)
    switch recording.completion {
    case .finished:
      values.receive(subscriber: subscriber)
    case .failure(let error):
      values.append(Fail(error: error)).receive(subscriber: subscriber)
    }
  }

  /// Values and a completion, recorded in order.
  ///
  /// A new recording is empty and, until it receives a completion, ends with `.finished`. Where
  /// Combine traps (a value or a second completion after the completion), a recording ignores
  /// the event.
  public struct Recording {
    public typealias Input = Output

    /// The recorded values.
    public private(set) var output: [Output]
    /// The recorded completion (`.finished` until one is received).
    public private(set) var completion: Subscribers.Completion<Failure>
    private var isComplete: Bool

    /// An empty recording.
    public init() {
      output = []
      completion = .finished
      isComplete = false
    }

    /// A complete recording of `output` followed by `completion`.
    public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
      self.output = output
      self.completion = completion
      isComplete = true
    }

    /// Records a value; ignored once the recording is complete.
    public mutating func receive(_ input: Output) {
      guard !isComplete else { return }
      output.append(input)
    }

    /// Records the completion; ignored once the recording is complete.
    public mutating func receive(completion: Subscribers.Completion<Failure>) {
      guard !isComplete else { return }
      self.completion = completion
      isComplete = true
    }
  }
}

extension Record: Sendable where Output: Sendable, Failure: Sendable {}
extension Record.Recording: Sendable where Output: Sendable, Failure: Sendable {}

extension Record: Codable where Output: Codable, Failure: Codable {
  private enum CodingKeys: String, CodingKey {
    case recording
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    recording = try container.decode(Recording.self, forKey: .recording)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(recording, forKey: .recording)
  }
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
  private enum CodingKeys: String, CodingKey {
    case output
    case completion
  }

  /// Decodes a complete recording.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      output: try container.decode([Output].self, forKey: .output),
      completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(output, forKey: .output)
    try container.encode(completion, forKey: .completion)
  }
}
