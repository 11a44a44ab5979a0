/// The parsed command line of `datasync`.
enum Command: Equatable {
  case help
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
  if name == "--help" || name == "-h" || name == "help" { return .help }
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

/// Parses the options of `serve`.
private func parseServe(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
  var options = ServeOptions()
  var remaining = arguments
  while let option = remaining.popFirst() {
    switch option {
    case "--help", "-h":
      return .help
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
        description: "unknown option '\(option)' for 'serve' (try 'datasync --help')")
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

let usage = """
  USAGE: datasync <command> [options]
         datasync get|set|merge|push|delete|watch <url>/<path> [json|-] [--token T]

  Commands:
    demo        A live chat room on the embedded database: writers push messages concurrently,
                a reader keeps an ordered, duplicate-free feed with a Streams pipeline.
    serve       Serve databases over HTTP: the REST and streaming (Server-Sent Events) protocol
                of hosted realtime databases, durable in SQLite files.
    get         Print the JSON value at <url>/<path> (http://127.0.0.1:9000/rooms/a).
    set         Write the JSON value (- reads it from the standard input); prints what was
                written.
    merge       Write each member of the JSON object (keys may be paths below the location).
    push        Add the JSON value as a new child; prints {"name": "<new key>"}.
    delete      Remove the value.
    watch       Print one line per event until interrupted: added|changed|removed <key> <json>
                for children, value <key> <json> for the location; reconnects on its own and
                says so on the standard error.

  Options of get, set, merge, push, delete and watch:
    --token T       The credential sent with every request (auth=T).
    A namespace is given as ?ns=NS in the URL. get also takes the read parameters of the REST
    protocol in the URL: shallow, print, format, orderBy with startAt, startAfter, endAt,
    endBefore, equalTo, limitToFirst, limitToLast ('.../rooms?orderBy="$key"&limitToFirst=10').
    Exit status: 0 success, 1 the server refused the request or could not be reached (its
    message on the standard error), 2 bad usage.

  Options of demo:
    --writers N     Concurrent writers, 1 to 64 (default 4).
    --messages N    Messages seeded in the room before the writers start (default 200).
    --seconds S     How long the writers write (default 3).
    --help          Show this help.

  Options of serve:
    --host H          The address to listen on (default 127.0.0.1; 0.0.0.0 for every interface).
    --port N          The port, 0 for a free one (default 9000); the chosen port is printed.
    --data FILE       The database file of the default namespace (default ./datasync.sqlite);
                      namespace NS lives beside it (./datasync.NS.sqlite), created on first use.
    --rules FILE      Security rules ({"rules": {...}}); default: "auth != null" for read and
                      write.
    --open            Open rules: everyone may read and write everything.
    --tokens FILE     The identity of each token: {"<token>": {"uid": "...", "provider": "...",
                      "claims": {...}}, "<token>": {"admin": true}}.
    --admin-token T   The token of the administrator (default owner), who bypasses the rules.
    --verbose         Log one line per request.
    --help            Show this help.
  """

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
