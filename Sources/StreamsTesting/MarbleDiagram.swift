import Streams

/// A parsed marble diagram: what happens at which tick.
///
/// Syntax, one character per tick:
/// - `-` nothing happens during this tick;
/// - any other character (letters, digits, …) is a value;
/// - `|` the stream finishes, `#` it fails;
/// - `[ab]` several events at the same tick (the group takes one tick);
/// - spaces are ignored, for alignment.
///
/// Nothing may follow `|` or `#`. Malformed diagrams throw a ``MarbleError`` naming the culprit.
///
/// ```swift
/// let diagram = try MarbleDiagram("-a-b--c|")
/// diagram.events[0]   // (tick: 1, event: .value("a"))
/// ```
public struct MarbleDiagram: Equatable, Sendable, CustomStringConvertible {
  /// One event of a diagram.
  public enum Event: Equatable, Sendable {
    /// A value, as its character.
    case value(Character)
    /// `|`.
    case finished
    /// `#`.
    case failure
  }

  /// The events in order, with the tick each happens at.
  public let events: [(tick: Int, event: Event)]

  /// Parses `diagram`.
  ///
  /// - Throws: ``MarbleError`` for an unbalanced or nested group, an empty group, or an event
  ///   after the completion.
  public init(_ diagram: String) throws {
    var events: [(tick: Int, event: Event)] = []
    var tick = 0
    var groupStart: Int?
    var groupIsEmpty = true
    var isCompleted = false
    for (position, character) in diagram.enumerated() {
      switch character {
      case " ":
        continue
      case "[":
        if groupStart != nil {
          throw MarbleError(
            code: .nestedGroup, position: position,
            message: "'[' at \(position) opens a group inside the group opened at \(groupStart!)")
        }
        groupStart = position
        groupIsEmpty = true
      case "]":
        guard let start = groupStart else {
          throw MarbleError(
            code: .unopenedGroup, position: position,
            message: "']' at \(position) closes no group")
        }
        if groupIsEmpty {
          throw MarbleError(
            code: .emptyGroup, position: start, message: "the group at \(start) is empty")
        }
        groupStart = nil
        tick += 1
      case "-":
        if groupStart != nil {
          throw MarbleError(
            code: .tickInGroup, position: position,
            message: "'-' at \(position) cannot be inside a group")
        }
        tick += 1
      default:
        if isCompleted {
          throw MarbleError(
            code: .eventAfterCompletion, position: position,
            message: "'\(character)' at \(position) comes after the completion")
        }
        let event: Event =
          character == "|" ? .finished : character == "#" ? .failure : .value(character)
        if event != .value(character) { isCompleted = true }
        events.append((tick, event))
        groupIsEmpty = false
        if groupStart == nil { tick += 1 }
      }
    }
    if let start = groupStart {
      throw MarbleError(
        code: .unclosedGroup, position: start, message: "the group opened at \(start) is not closed"
      )
    }
    self.events = events
  }

  /// A diagram of `events`, which must be in tick order.
  public init(events: [(tick: Int, event: Event)]) {
    self.events = events
  }

  /// The diagram as text: `-` for a tick without events, `[…]` for several at one tick; nothing
  /// is written after the last event.
  public var description: String {
    var text = ""
    var index = 0
    var tick = 0
    while index < events.count {
      var group: [Character] = []
      while index < events.count, events[index].tick == tick {
        group.append(Self.character(for: events[index].event))
        index += 1
      }
      switch group.count {
      case 0: text.append("-")
      case 1: text.append(group[0])
      default: text += "[" + String(group) + "]"
      }
      tick += 1
    }
    return text
  }

  private static func character(for event: Event) -> Character {
    switch event {
    case .value(let character): return character
    case .finished: return "|"
    case .failure: return "#"
    }
  }

  public static func == (lhs: MarbleDiagram, rhs: MarbleDiagram) -> Bool {
    lhs.events.count == rhs.events.count
      && zip(lhs.events, rhs.events).allSatisfy { $0.tick == $1.tick && $0.event == $1.event }
  }
}
