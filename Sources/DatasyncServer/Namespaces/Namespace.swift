import Datasync

/// The name of a database served by a ``DatabaseServer``: requests choose one with `?ns=<name>`
/// or with a `Host` that is a subdomain of `localhost` (`chat.localhost:9000` → `chat`), as the
/// local emulators of hosted realtime databases do; without either they use the default
/// database. (Other host names never select a namespace, so that a server reached through its
/// DNS name serves the default database.)
///
/// A name is 1 to 63 lowercase ASCII letters, digits and hyphens, not starting with a hyphen,
/// so that it is safe in a file name on every platform.
public struct Namespace: Sendable, Hashable, CustomStringConvertible {
  /// The name.
  public let name: String

  /// Creates a namespace from its name.
  ///
  /// - Throws: ``WebcomError`` with code `invalidArgument` naming the name and the rule.
  public init(_ name: String) throws(WebcomError) {
    let bytes = Array(name.utf8)
    let isValid =
      (1...63).contains(bytes.count) && bytes[0] != UInt8(ascii: "-")
      && bytes.allSatisfy { byte in
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
      }
    guard isValid else {
      throw WebcomError(
        .invalidArgument,
        "the namespace \(JSONStringLiteral.quoted(name)) is invalid: a namespace is 1 to 63 "
          + "lowercase letters, digits and hyphens, not starting with a hyphen")
    }
    self.name = name
  }

  /// The name.
  public var description: String { name }

  /// The namespace a `Host` header names: `<name>.localhost` (with or without a port) names
  /// `<name>`, lowercased; any other host names none.
  static func fromHost(_ host: String) -> Namespace? {
    var name = host.lowercased()[...]
    if let colon = name.lastIndex(of: ":"), !name.hasPrefix("[") { name = name[..<colon] }
    guard name.hasSuffix(".localhost") else { return nil }
    return try? Namespace(String(name.dropLast(".localhost".count)))
  }
}
