import Datasync

/// An HTTP request read as a request of the REST protocol: a method on the data at a path of a
/// namespace, with a credential and the parameters of its answer.
struct RESTRequest: Sendable {
  enum Method: String, Sendable {
    case get = "GET"
    case put = "PUT"
    case post = "POST"
    case patch = "PATCH"
    case delete = "DELETE"
  }

  /// The method, after `X-HTTP-Method-Override` (`HEAD` reads as `GET`).
  let method: Method
  /// The location: the request path without its `.json` suffix.
  let path: DatasyncPath
  /// The namespace from `?ns=` or the `Host` (nil: the default one).
  let namespace: Namespace?
  /// The credential from `?auth=` or `Authorization: Bearer`, nil when none.
  let token: String?
  /// Whether the client asked for a stream (`Accept: text/event-stream` on a read).
  let isStreaming: Bool
  /// Whether the client asked for the `ETag` of the data (`X-Firebase-ETag: true`).
  let wantsEntityTag: Bool
  /// The `if-match` condition of a write, without its quotes.
  let ifMatch: String?
  /// The `if-none-match` condition of a read, without its quotes.
  let ifNoneMatch: String?
  let parameters: RESTQueryParameters
  let body: [UInt8]

  /// The methods the protocol knows, for `Allow`.
  static let allowedMethods = "GET, PUT, POST, PATCH, DELETE"

  /// Reads an HTTP request.
  ///
  /// - Throws: ``RESTError``: 404 for a path that does not end in `.json`, 405 for another
  ///   method, 400 for an invalid path, namespace or parameter, 401 for an `Authorization`
  ///   header that is not a bearer token.
  init(_ request: HTTPRequest) throws(RESTError) {
    method = try Self.method(of: request)
    guard request.path.hasSuffix(".json") else {
      throw RESTError(
        .notFound,
        "\(JSONStringLiteral.quoted(request.path)) is not a data location: REST paths end in "
          + ".json (for example /users/ada.json, or /.json for the root)")
    }
    do {
      path = try DatasyncPath(restPath: String(request.path.dropLast(".json".count)))
    } catch {
      throw RESTError(.badRequest, error.message)
    }
    namespace = try Self.namespace(of: request)
    token = try Self.token(of: request)
    isStreaming =
      method == .get
      && request.headers.values(for: "Accept").contains { $0.contains("text/event-stream") }
    wantsEntityTag = request.headers["X-Firebase-ETag"]?.lowercased() == "true"
    ifMatch = request.headers["if-match"].map(Self.unquoted)
    ifNoneMatch = request.headers["if-none-match"].map(Self.unquoted)
    parameters = try RESTQueryParameters(request.queryItems)
    body = request.body
  }

  private static func method(of request: HTTPRequest) throws(RESTError) -> Method {
    var name = request.method
    if let override = request.headers["X-HTTP-Method-Override"] {
      guard name == "POST" else {
        throw RESTError(
          .badRequest, "X-HTTP-Method-Override is only accepted on POST, not on \(name)")
      }
      name = override.uppercased()
    }
    if name == "HEAD" { return .get }
    guard let method = Method(rawValue: name) else {
      throw RESTError(
        .methodNotAllowed, "the method \(name) is not supported (\(allowedMethods) are)",
        headers: ["Allow": allowedMethods])
    }
    return method
  }

  /// The namespace a request names with `?ns=` or its `Host`, nil for the default one.
  ///
  /// - Throws: ``RESTError`` (400) for an invalid `ns`.
  static func namespace(of request: HTTPRequest) throws(RESTError) -> Namespace? {
    guard let name = request.query("ns") else {
      return request.headers["Host"].flatMap(Namespace.fromHost)
    }
    do {
      return try Namespace(name)
    } catch {
      throw RESTError(.badRequest, error.message)
    }
  }

  /// The credential of a request, from `?auth=` or `Authorization: Bearer`.
  ///
  /// - Throws: ``RESTError``: 401 for another authorization scheme, 400 for two different
  ///   tokens.
  static func token(of request: HTTPRequest) throws(RESTError) -> String? {
    let fromQuery = request.query("auth")
    var fromHeader: String?
    if let authorization = request.headers["Authorization"] {
      let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
      guard parts.count == 2, parts[0].lowercased() == "bearer" else {
        throw RESTError(
          .unauthorized, "the Authorization header must be \"Bearer <token>\"")
      }
      fromHeader = parts[1].trimmingCharacters(in: [" ", "\t"])
    }
    if let fromQuery, let fromHeader, fromQuery != fromHeader {
      throw RESTError(
        .badRequest, "the auth parameter and the Authorization header give different tokens")
    }
    return fromQuery ?? fromHeader
  }

  /// An entity tag without its weak marker and quotes.
  static func unquoted(_ tag: String) -> String {
    var text = tag.trimmingCharacters(in: [" ", "\t"])[...]
    if text.hasPrefix("W/") { text = text.dropFirst(2) }
    if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
      text = text.dropFirst().dropLast()
    }
    return String(text)
  }
}
