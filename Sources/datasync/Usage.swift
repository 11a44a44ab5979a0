/// What a help request describes: the whole program (`datasync --help`) or one command
/// (`datasync serve --help`, `datasync help serve`).
enum HelpTopic: Equatable {
  case program
  case demo
  case serve
  case remote(RemoteCommandOptions.Action)

  /// The topic a command's name stands for, nil for a name that is no command.
  init?(command name: String) {
    switch name {
    case "demo": self = .demo
    case "serve": self = .serve
    default:
      guard let action = RemoteCommandOptions.Action(rawValue: name) else { return nil }
      self = .remote(action)
    }
  }

  /// The name of the command the topic describes, nil for the whole program.
  var command: String? {
    switch self {
    case .program: nil
    case .demo: "demo"
    case .serve: "serve"
    case .remote(let action): action.rawValue
    }
  }

  /// The words that ask for this help, for the hints of usage errors.
  var request: String {
    command.map { "datasync \($0) --help" } ?? "datasync --help"
  }
}

/// The help text of `topic`: the program's names every command and all their options; a
/// command's gives its usage line, what it does and its options.
func usage(for topic: HelpTopic) -> String {
  switch topic {
  case .program:
    return """
      USAGE: datasync <command> [options]
             datasync get|set|merge|push|delete|watch <url>/<path> [json|-] [--token T]

      Commands:
      \(commandListing)

      Options of get, set, merge, push, delete and watch:
      \(remoteOptions)

      Options of demo:
      \(demoOptions)

      Options of serve:
      \(serveOptions)

      'datasync <command> --help' describes one command.
      """
  case .demo:
    return """
      USAGE: datasync demo [--writers N] [--messages N] [--seconds S]

      \(summary(of: topic))

      Options:
      \(demoOptions)

      Example: datasync demo --writers 8 --seconds 5
      """
  case .serve:
    return """
      USAGE: datasync serve [--host H] [--port N] [--data FILE] [--rules FILE | --open]
                            [--tokens FILE] [--admin-token T] [--verbose]

      \(summary(of: topic))

      Options:
      \(serveOptions)

      Example: datasync serve --port 0 --open
      """
  case .remote(let action):
    let value = action.takesValue ? " <json|->" : ""
    return """
      USAGE: datasync \(action.rawValue) <url>/<path>\(value) [--token T]

      \(summary(of: topic))

      Options:
      \(remoteOptions)

      Example: datasync \(action.rawValue) \(remoteExample(action))
      """
  }
}

/// The arguments of an example of a command on a database served on this machine.
private func remoteExample(_ action: RemoteCommandOptions.Action) -> String {
  let room = "http://127.0.0.1:9000/rooms/a"
  switch action {
  case .get: return "'\(room)/messages?orderBy=\"$key\"&limitToLast=10'"
  case .set: return "\(room)/name '\"Lobby\"'"
  case .merge: return "\(room) '{\"name\": \"Lobby\", \"topic\": \"news\"}'"
  case .push: return "\(room)/messages '{\"text\": \"hello\"}'"
  case .delete: return "\(room)/messages"
  case .watch: return "\(room)/messages"
  }
}

/// Each command's name and description, in the order the program's help lists them.
private let commandSummaries: [(name: String, description: [String])] = [
  (
    "demo",
    [
      "A live chat room on the embedded database: writers push messages concurrently,",
      "a reader keeps an ordered, duplicate-free feed with a Streams pipeline.",
    ]
  ),
  (
    "serve",
    [
      "Serve databases over HTTP: the REST and streaming (Server-Sent Events) protocol",
      "of hosted realtime databases, durable in SQLite files.",
    ]
  ),
  ("get", ["Print the JSON value at <url>/<path> (http://127.0.0.1:9000/rooms/a)."]),
  (
    "set",
    ["Write the JSON value (- reads it from the standard input); prints what was", "written."]
  ),
  ("merge", ["Write each member of the JSON object (keys may be paths below the location)."]),
  ("push", ["Add the JSON value as a new child; prints {\"name\": \"<new key>\"}."]),
  ("delete", ["Remove the value."]),
  (
    "watch",
    [
      "Print one line per event until interrupted: added|changed|removed <key> <json>",
      "for children, value <key> <json> for the location; reconnects on its own and",
      "says so on the standard error.",
    ]
  ),
]

/// The program's list of commands: each name in a column of its own, then its description.
private var commandListing: String {
  let column = 12
  return commandSummaries.map { command in
    let name = "  " + command.name + String(repeating: " ", count: column - command.name.count)
    let indent = String(repeating: " ", count: 2 + column)
    return name + command.description.joined(separator: "\n" + indent)
  }.joined(separator: "\n")
}

/// The description of a topic's command as a paragraph of its own.
private func summary(of topic: HelpTopic) -> String {
  (commandSummaries.first { $0.name == topic.command }?.description ?? []).joined(separator: "\n")
}

private let remoteOptions = """
    --token T       The credential sent with every request (auth=T).
    --help          Show this help.
    A namespace is given as ?ns=NS in the URL. get also takes the read parameters of the REST
    protocol in the URL: shallow, print, format, orderBy with startAt, startAfter, endAt,
    endBefore, equalTo, limitToFirst, limitToLast ('.../rooms?orderBy="$key"&limitToFirst=10').
    Exit status: 0 success, 1 the server refused the request or could not be reached (its
    message on the standard error), 2 bad usage.
  """

private let demoOptions = """
    --writers N     Concurrent writers, 1 to 64 (default 4).
    --messages N    Messages seeded in the room before the writers start (default 200).
    --seconds S     How long the writers write (default 3).
    --help          Show this help.
  """

private let serveOptions = """
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
