import Foundation

/// The options of `datasync get|set|merge|push|delete|watch <url>/<path> [json] [--token T]`.
struct RemoteCommandOptions: Equatable {
  /// What the command does.
  enum Action: String, Equatable, CaseIterable {
    case get, set, merge, push, delete, watch

    /// Whether the command writes a JSON value given on the command line.
    var takesValue: Bool { self == .set || self == .merge || self == .push }
  }

  var action: Action
  /// The database: scheme, host and port of the URL.
  var database: URL
  /// The location as written in the URL (percent-encoded), `/` for the root.
  var path: String
  /// The namespace (`?ns=` of the URL).
  var namespace: String?
  /// The value argument: JSON text, or `-` for the standard input.
  var value: String?
  var token: String?
}

/// Parses the arguments after the action's name.
func parseRemote(_ action: RemoteCommandOptions.Action, _ arguments: ArraySlice<String>)
  throws(UsageError) -> Command
{
  var positional: [String] = []
  var token: String?
  var remaining = arguments
  while let argument = remaining.popFirst() {
    switch argument {
    case "--help", "-h":
      return .help
    case "--token":
      token = try text(for: argument, from: &remaining)
    case let option where option.hasPrefix("--"):
      throw UsageError(
        description: "unknown option '\(option)' for '\(action.rawValue)' (try 'datasync --help')")
    default:
      positional.append(argument)
    }
  }
  let expected = action.takesValue ? 2 : 1
  guard positional.count == expected else {
    let shape = action.takesValue ? "<url>/<path> <json|->" : "<url>/<path>"
    throw UsageError(
      description: "'\(action.rawValue)' takes \(shape), got \(positional.count) argument(s)")
  }
  let (database, path, namespace) = try location(positional[0])
  return .remote(
    RemoteCommandOptions(
      action: action, database: database, path: path, namespace: namespace,
      value: action.takesValue ? positional[1] : nil, token: token))
}

/// The database URL, the path and the namespace of `<url>/<path>`: an `http` or `https` URL
/// whose path is the location (a trailing `.json` is dropped), with an optional `?ns=`.
private func location(_ text: String) throws(UsageError) -> (URL, String, String?) {
  guard let components = URLComponents(string: text),
    let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
    let host = components.host, !host.isEmpty
  else {
    throw UsageError(
      description: "'\(text)' is not a database location: use http(s)://host[:port]/path")
  }
  var database = URLComponents()
  database.scheme = scheme
  database.host = host
  database.port = components.port
  var path = components.percentEncodedPath
  if path.hasSuffix(".json") { path.removeLast(5) }
  if path.isEmpty { path = "/" }
  var namespace: String?
  for item in components.queryItems ?? [] {
    guard item.name == "ns", let value = item.value, !value.isEmpty else {
      throw UsageError(
        description: "'\(text)': the only query parameter accepted is ns=<namespace>")
    }
    namespace = value
  }
  guard let url = database.url else {
    throw UsageError(description: "'\(text)' is not a database location")
  }
  return (url, path, namespace)
}
