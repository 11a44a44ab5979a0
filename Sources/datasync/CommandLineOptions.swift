/// The parsed command line of `datasync`.
enum Command: Equatable {
  case help
  case demo(DemoOptions)
}

/// The options of `datasync demo`.
struct DemoOptions: Equatable {
  var writers = 4
  var messages = 200
  var seconds = 3.0
}

/// A command line that cannot be run; its description is the one-line error shown to the user.
struct UsageError: Error, CustomStringConvertible {
  let description: String
}

/// Parses `arguments` (without the program name).
func parseCommand(_ arguments: [String]) throws(UsageError) -> Command {
  guard let name = arguments.first else {
    throw UsageError(description: "missing command (try 'datasync --help')")
  }
  if name == "--help" || name == "-h" || name == "help" { return .help }
  guard name == "demo" else {
    throw UsageError(description: "unknown command '\(name)' (try 'datasync --help')")
  }
  var options = DemoOptions()
  var remaining = arguments.dropFirst()
  while let option = remaining.popFirst() {
    switch option {
    case "--help", "-h":
      return .help
    case "--writers":
      options.writers = try integer(for: option, from: &remaining, in: 1...64)
    case "--messages":
      options.messages = try integer(for: option, from: &remaining, in: 0...1_000_000)
    case "--seconds":
      guard let text = remaining.popFirst() else {
        throw UsageError(description: "\(option) needs a value")
      }
      guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3_600 else {
        throw UsageError(
          description: "\(option) must be a number of seconds in (0, 3600], not '\(text)'")
      }
      options.seconds = seconds
    default:
      throw UsageError(description: "unknown option '\(option)' for 'demo' (try 'datasync --help')")
    }
  }
  return .demo(options)
}

private func integer(
  for option: String, from arguments: inout ArraySlice<String>, in range: ClosedRange<Int>
) throws(UsageError) -> Int {
  guard let text = arguments.popFirst() else {
    throw UsageError(description: "\(option) needs a value")
  }
  guard let value = Int(text), range.contains(value) else {
    throw UsageError(
      description:
        "\(option) must be an integer from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
    )
  }
  return value
}

let usage = """
  USAGE: datasync <command> [options]

  Commands:
    demo        A live chat room on the embedded database: writers push messages concurrently,
                a reader keeps an ordered, duplicate-free feed with a Streams pipeline.

  Options of demo:
    --writers N     Concurrent writers, 1 to 64 (default 4).
    --messages N    Messages seeded in the room before the writers start (default 200).
    --seconds S     How long the writers write (default 3).
    --help          Show this help.
  """
