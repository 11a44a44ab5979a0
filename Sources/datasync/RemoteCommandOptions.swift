import DatasyncServer
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
  /// The other query parameters of the URL, sent as they are: for `get`, the parameters that
  /// shape a read (see `RESTQueryParameters.readParameterNames`).
  var parameters: [URLQueryItem] = []
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
      return .help(.remote(action))
    case "--token":
      token = try text(for: argument, from: &remaining)
    case let option where option.hasPrefix("--"):
      throw UsageError(
        description:
          "unknown option '\(option)' for '\(action.rawValue)' "
          + "(try '\(HelpTopic.remote(action).request)')")
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
  let (database, path, namespace, parameters) = try location(positional[0], for: action)
  return .remote(
    RemoteCommandOptions(
      action: action, database: database, path: path, namespace: namespace,
      parameters: parameters, value: action.takesValue ? positional[1] : nil, token: token))
}

/// The database URL, the path, the namespace and the other query parameters of
/// `<url>/<path>`: an `http` or `https` URL whose path is the location (a trailing `.json` is
/// dropped), with an optional `?ns=` and, for `get`, the parameters of a read.
private func location(_ text: String, for action: RemoteCommandOptions.Action)
  throws(UsageError) -> (URL, String, String?, [URLQueryItem])
{
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
  var parameters: [URLQueryItem] = []
  for item in components.queryItems ?? [] {
    if item.name == "ns", let value = item.value, !value.isEmpty {
      namespace = value
    } else if action == .get, RESTQueryParameters.readParameterNames.contains(item.name) {
      parameters.append(item)
    } else {
      throw UsageError(description: "'\(text)': \(refusal(of: item, for: action))")
    }
  }
  guard let url = database.url else {
    throw UsageError(description: "'\(text)' is not a database location")
  }
  return (url, path, namespace, parameters)
}

/// Why a query parameter is refused, with what the action accepts.
private func refusal(of item: URLQueryItem, for action: RemoteCommandOptions.Action) -> String {
  if item.name == "auth" { return "give the credential with --token, not auth=" }
  if item.name == "ns" { return "ns needs a namespace (ns=<namespace>)" }
  guard action == .get else {
    return "'\(action.rawValue)' accepts only the query parameter ns=<namespace>, not \(item.name)"
  }
  return "'get' accepts ns=<namespace> and "
    + RESTQueryParameters.readParameterNames.joined(separator: ", ") + ", not \(item.name)"
}
