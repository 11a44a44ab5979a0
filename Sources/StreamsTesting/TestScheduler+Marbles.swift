import Streams
import Testing

extension VirtualTimeScheduler where SchedulerTimeType == VirtualTime {
  /// A publisher that plays `diagram` on this scheduler, one tick every `tick`, with each value
  /// character replaced by `values[character]` and `#` failing with `error`.
  ///
  /// The publisher is cold: each subscriber gets the whole diagram, tick 0 being the instant it
  /// subscribed. Events are sent through a subject, so a value arriving while the subscriber has
  /// no demand is dropped.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let source = try scheduler.marbles("-a-b|", values: ["a": 1, "b": 2], error: MarbleFailure())
  /// ```
  ///
  /// - Throws: ``MarbleError`` for a malformed diagram, or `.unknownValue` naming a value
  ///   character missing from `values`.
  public func marbles<Value, Failure: Error>(
    _ diagram: String, values: [Character: Value], error: Failure,
    tick: SchedulerTimeType.Stride = .seconds(1)
  ) throws -> AnyPublisher<Value, Failure> {
    let parsed = try MarbleDiagram(diagram)
    for (index, entry) in parsed.events.enumerated() {
      if case .value(let character) = entry.event, values[character] == nil {
        throw MarbleError(
          code: .unknownValue, position: index,
          message: "value '\(character)' (event \(index)) is not in the values dictionary")
      }
    }
    return play(parsed, tick: tick) {
      values[$0]!
    } failure: {
      error
    }
  }

  /// A publisher that plays `diagram` with each value character as the value itself; `#` fails
  /// with ``MarbleFailure``. See ``marbles(_:values:error:tick:)``.
  public func marbles(
    _ diagram: String, tick: SchedulerTimeType.Stride = .seconds(1)
  ) throws -> AnyPublisher<Character, MarbleFailure> {
    play(try MarbleDiagram(diagram), tick: tick) {
      $0
    } failure: {
      MarbleFailure()
    }
  }

  private func play<Value, Failure: Error>(
    _ diagram: MarbleDiagram, tick: SchedulerTimeType.Stride,
    value: @escaping (Character) -> Value, failure: @escaping () -> Failure
  ) -> AnyPublisher<Value, Failure> {
    Deferred { [self] in
      let subject = PassthroughSubject<Value, Failure>()
      let start = now
      for entry in diagram.events {
        let at = start.advanced(by: tick * SchedulerTimeType.Stride(nanoseconds: entry.tick))
        schedule(after: at) {
          switch entry.event {
          case .value(let character): subject.send(value(character))
          case .finished: subject.send(completion: .finished)
          case .failure: subject.send(completion: .failure(failure()))
          }
        }
      }
      return subject
    }
    .eraseToAnyPublisher()
  }

  /// Subscribes to `publisher` with unlimited demand, runs the scheduler and returns what it
  /// published as a diagram, one character per `tick` from the moment of subscription.
  ///
  /// Values are written by `describe`; events within one tick are grouped in `[…]`. With
  /// `ticks`, the clock is advanced by that many ticks; without, ``run()`` is used. The
  /// subscription is cancelled before returning.
  ///
  /// ```swift
  /// let source = try scheduler.marbles("ab--c|")
  /// let output = scheduler.record(source.debounce(for: .seconds(1), scheduler: scheduler))
  /// // output == "-b---[c|]"
  /// ```
  public func record<P: Publisher>(
    _ publisher: P, tick: SchedulerTimeType.Stride = .seconds(1), ticks: Int? = nil,
    describe: (P.Output) -> Character
  ) -> MarbleDiagram {
    let start = now
    let recorder = RecordingSubscriber<P.Output, P.Failure>(clock: clock)
    publisher.subscribe(recorder)
    if let ticks {
      advance(by: tick * SchedulerTimeType.Stride(nanoseconds: ticks))
    } else {
      run()
    }
    recorder.cancel()
    let tickLength = max(tick.nanoseconds, 1)
    var events: [(tick: Int, event: MarbleDiagram.Event)] = []
    for entry in recorder.timedEvents {
      let at = ((entry.time ?? start.nanoseconds) - start.nanoseconds) / tickLength
      switch entry.event {
      case .subscription: continue
      case .value(let value): events.append((at, .value(describe(value))))
      case .completion(.finished): events.append((at, .finished))
      case .completion(.failure): events.append((at, .failure))
      }
    }
    return MarbleDiagram(events: events)
  }

  /// ``record(_:tick:ticks:describe:)`` for a publisher of characters.
  public func record<P: Publisher>(
    _ publisher: P, tick: SchedulerTimeType.Stride = .seconds(1), ticks: Int? = nil
  ) -> MarbleDiagram where P.Output == Character {
    record(publisher, tick: tick, ticks: ticks) { $0 }
  }
}
