/// The parsed command line of `datasync`.
enum Command: Equatable {
  case help(HelpTopic)
  case demo(DemoOptions)
  case serve(ServeOptions)
  case remote(RemoteCommandOptions)
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
  if name == "--help" || name == "-h" { return .help(.program) }
  if name == "help" {
    guard let topic = arguments.dropFirst().first else { return .help(.program) }
    guard let command = HelpTopic(command: topic) else {
      throw UsageError(description: "no command named '\(topic)' (try 'datasync --help')")
    }
    return .help(command)
  }
  if name == "serve" { return try parseServe(arguments.dropFirst()) }
  if let action = RemoteCommandOptions.Action(rawValue: name) {
    return try parseRemote(action, arguments.dropFirst())
  }
  guard name == "demo" else {
    throw UsageError(description: "unknown command '\(name)' (try 'datasync --help')")
  }
  var options = DemoOptions()
  var remaining = arguments.dropFirst()
  while let option = remaining.popFirst() {
    switch option {
    case "--help", "-h":
      return .help(.demo)
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
      throw UsageError(
        description: "unknown option '\(option)' for 'demo' (try '\(HelpTopic.demo.request)')")
    }
  }
  return .demo(options)
}

/// Parses the options of `serve`.
private func parseServe(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
  var options = ServeOptions()
  var remaining = arguments
  while let option = remaining.popFirst() {
    switch option {
    case "--help", "-h":
      return .help(.serve)
    case "--host":
      options.host = try text(for: option, from: &remaining)
    case "--port":
      options.port = try integer(for: option, from: &remaining, in: 0...65_535)
    case "--data":
      options.dataPath = try text(for: option, from: &remaining)
    case "--rules":
      options.rulesPath = try text(for: option, from: &remaining)
    case "--tokens":
      options.tokensPath = try text(for: option, from: &remaining)
    case "--open":
      options.isOpen = true
    case "--admin-token":
      options.adminToken = try text(for: option, from: &remaining)
    case "--verbose":
      options.isVerbose = true
    default:
      throw UsageError(
        description: "unknown option '\(option)' for 'serve' (try '\(HelpTopic.serve.request)')")
    }
  }
  if options.isOpen && options.rulesPath != nil {
    throw UsageError(description: "--open and --rules cannot be combined: choose one set of rules")
  }
  return .serve(options)
}

/// The value of an option that takes a non-empty text.
/// The value of `option`: the next argument, which must not be empty or another option.
func text(for option: String, from arguments: inout ArraySlice<String>) throws(UsageError)
  -> String
{
  guard let value = arguments.popFirst(), !value.isEmpty, !value.hasPrefix("--") else {
    throw UsageError(description: "\(option) needs a value")
  }
  return value
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

/// The options of `datasync serve`.
struct ServeOptions: Equatable {
  var host = "127.0.0.1"
  var port = 9000
  var dataPath = "./datasync.sqlite"
  var rulesPath: String?
  var tokensPath: String?
  var isOpen = false
  var adminToken = "owner"
  var isVerbose = false
}
