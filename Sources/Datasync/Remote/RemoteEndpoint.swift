import Foundation

/// The URLs of a remote database: `<base>/<path>.json` with the namespace (`ns=`) and the
/// credential (`auth=`) as query parameters, as hosted realtime databases take them.
struct RemoteEndpoint: Sendable {
  /// The database URL without a trailing `/` (its path, if any, prefixes every location).
  let base: URL
  let namespace: String?

  /// The endpoint of a database URL (`http` or `https`).
  ///
  /// - Throws: ``WebcomError`` with code `invalidArgument` naming the URL when it is not an
  ///   absolute `http` or `https` URL with a host, or has a query or a fragment.
  init(url: URL, namespace: String?) throws(WebcomError) {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty,
      components.query == nil, components.fragment == nil
    else {
      throw WebcomError(
        .invalidArgument,
        "the remote database URL \(url.absoluteString) is invalid: it must be an absolute "
          + "http or https URL with a host and no query (https://example.com or "
          + "http://127.0.0.1:8080)")
    }
    var trimmed = components
    while trimmed.percentEncodedPath.hasSuffix("/") { trimmed.percentEncodedPath.removeLast() }
    guard let base = trimmed.url else {
      throw WebcomError(
        .invalidArgument, "the remote database URL \(url.absoluteString) is invalid")
    }
    self.base = base
    self.namespace = namespace
  }

  /// An endpoint taking `url` as it is, for a URL that failed validation: nothing is sent to it.
  init(unchecked url: URL, namespace: String?) {
    base = url
    self.namespace = namespace
  }

  /// The URL of a location, with the namespace, the credential and `extra` query parameters.
  func url(for path: DatasyncPath, token: String?, _ extra: [URLQueryItem] = []) -> URL {
    var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
    var encodedPath = components.percentEncodedPath
    for key in path.keys {
      encodedPath += "/" + Self.percentEncoded(key.value)
    }
    components.percentEncodedPath = encodedPath + (path.isRoot ? "/.json" : ".json")
    var items = extra
    if let namespace { items.append(URLQueryItem(name: "ns", value: namespace)) }
    if let token { items.append(URLQueryItem(name: "auth", value: token)) }
    if !items.isEmpty {
      components.percentEncodedQueryItems = items.map {
        URLQueryItem(name: $0.name, value: $0.value.map(Self.percentEncoded))
      }
    }
    return components.url!
  }

  /// The text of a URL for messages, the credential replaced by `***`.
  static func redacted(_ url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return url.absoluteString
    }
    components.queryItems = components.queryItems?.map {
      $0.name == "auth" ? URLQueryItem(name: "auth", value: "***") : $0
    }
    return components.string ?? url.absoluteString
  }

  /// Every byte but the unreserved characters of RFC 3986 percent-encoded.
  private static func percentEncoded(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
  }

  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
