import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How a request of the client travels over the REST protocol: the HTTP request to send, and
/// how its answer becomes the back end's message.
///
/// Writes: a set is a `PUT` of the value (a `DELETE` for null), a merge a `PATCH` of its
/// entries, an increment from 0 a `PUT` of the increment server value
/// `{".sv": {"increment": step}}`, a compare-and-set a `PUT` with `if-match` the entity tag of
/// the expected value (`412` answers it with the current value). A read is a `GET`. An
/// authentication checks the token with a shallow, silent `GET` of the root: `401` refuses it,
/// any other answer accepts it.
struct RemoteRequest {
  let method: String
  let path: DatasyncPath
  let query: [URLQueryItem]
  let body: [UInt8]?
  let headers: [String: String]

  /// The HTTP request of a client request; nil for listens and unlistens (streams), sign-outs
  /// (answered at once), and what the REST protocol cannot carry — disconnection operations and
  /// increments from a start other than 0, which travel on the session (see ``RemoteSession``).
  init?(_ request: ClientRequest) {
    switch request {
    case .write(_, .set(let path, .null)):
      self.init("DELETE", path)
    case .write(_, .set(let path, let value)):
      self.init("PUT", path, body: value.jsonBytes())
    case .write(_, .merge(let path, let entries)):
      self.init("PATCH", path, body: MergeEntry.jsonBytes(of: entries))
    case .write(_, .increment(let path, let start, let step)) where start == 0:
      let increment = JSONValue.object(
        JSONObject(sortedUniqueNonNullPairs: [(JSONValue.incrementKey, Self.number(step))]))
      let placeholder = JSONValue.object(
        JSONObject(sortedUniqueNonNullPairs: [(JSONValue.serverValueKey, increment)]))
      self.init("PUT", path, body: placeholder.jsonBytes())
    case .write(_, .compareAndSet(let path, let expected, let value)):
      self.init(
        "PUT", path, body: value.jsonBytes(),
        headers: ["if-match": RemoteRequest.unquoted(expected.entityTag)])
    case .read(_, let path):
      self.init("GET", path)
    case .authenticate:
      self.init("GET", .root, query: Self.probeQuery)
    case .write(_, .increment), .writeOnDisconnection, .cancelDisconnectionWrites, .listen,
      .unlisten, .signOut:
      return nil
    }
  }

  private init(
    _ method: String, _ path: DatasyncPath, query: [URLQueryItem] = [], body: [UInt8]? = nil,
    headers: [String: String] = [:]
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.body = body
    self.headers = headers
  }

  /// The query of the requests that only check that the server answers (and how it takes a
  /// credential): a shallow read of the root, without a body.
  static let probeQuery = [
    URLQueryItem(name: "shallow", value: "true"), URLQueryItem(name: "print", value: "silent"),
  ]

  /// The URL request to send.
  func urlRequest(endpoint: RemoteEndpoint, token: String?, timeout: TimeInterval) -> URLRequest {
    var request = URLRequest(
      url: endpoint.url(for: path, token: token, query), timeoutInterval: timeout)
    request.httpMethod = method
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let body {
      request.httpBody = Data(body)
      request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
    }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return request
  }

  /// An entity tag without its double quotes.
  static func unquoted(_ tag: String) -> String {
    guard tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\"") else { return tag }
    return String(tag.dropFirst().dropLast())
  }

  private static func number(_ double: Double) -> JSONValue {
    if double.rounded() == double, abs(double) < 9.2e18 { return .int(Int64(double)) }
    return .double(double)
  }
}
