/// The identity a client is authenticated as, which security rules read as `auth`.
///
/// In a rule expression, `auth` is `null` for an unauthenticated client; otherwise `auth.uid` is
/// ``uid``, `auth.provider` is ``provider`` and `auth.token.<name>` is the claim of that name
/// (`null` when there is no such claim; claims that are objects are read with further member
/// access, as `auth.token.roles.editor`).
///
/// ``admin`` bypasses every rule: its reads and writes are never checked (`.read`, `.write` and
/// `.validate` alike), as a hosted back end's administration access.
///
/// ```swift
/// let alice = DatasyncAuthentication(uid: "alice", claims: ["moderator": true])
/// // ".write": "auth != null && (auth.uid == $uid || auth.token.moderator == true)"
/// ```
///
/// Two authentications are equal when their uid, provider, claims and administration status are.
public struct DatasyncAuthentication: Sendable, Hashable, CustomStringConvertible {
  /// The identity, shared by copies (rules copy authentications often).
  private final class Storage: Sendable {
    let uid: String
    let provider: String
    let claims: [String: DatasyncValue]
    let isAdmin: Bool
    let token: JSONValue
    let uidKey: WebcomKey?

    init(uid: String, provider: String, claims: [String: DatasyncValue], isAdmin: Bool) {
      self.uid = uid
      self.provider = provider
      self.claims = claims
      self.isAdmin = isAdmin
      uidKey = try? WebcomKey.validated(uid)
      var token = JSONObject()
      for (name, value) in claims {
        token = token.setting(value.tree, for: WebcomKey(name))
      }
      self.token = token.isEmpty ? .null : .object(token)
    }
  }

  private let storage: Storage

  /// The user's identifier, `auth.uid` in rules.
  public var uid: String { storage.uid }
  /// The authentication method, `auth.provider` in rules.
  public var provider: String { storage.provider }
  /// The token's claims, `auth.token.<name>` in rules.
  public var claims: [String: DatasyncValue] { storage.claims }
  /// Whether this is ``admin``, which bypasses every rule.
  public var isAdmin: Bool { storage.isAdmin }
  /// The claims as an object of the value model (null claims left out), read by rules.
  var token: JSONValue { storage.token }
  /// The uid as a key, `nil` when it cannot be one (rules use it in paths).
  var uidKey: WebcomKey? { storage.uidKey }

  /// Creates the identity of an authenticated user.
  ///
  /// - Parameters:
  ///   - uid: The user's identifier, `auth.uid` in rules.
  ///   - provider: The authentication method, `auth.provider` in rules.
  ///   - claims: The token's claims, `auth.token.<name>` in rules; a null claim reads as absent.
  public init(uid: String, provider: String = "custom", claims: [String: DatasyncValue] = [:]) {
    storage = Storage(uid: uid, provider: provider, claims: claims, isAdmin: false)
  }

  private init(administratorNamed name: String) {
    storage = Storage(uid: name, provider: name, claims: [:], isAdmin: true)
  }

  /// The administration identity: every read and write is allowed, no rule is evaluated.
  public static let admin = DatasyncAuthentication(administratorNamed: "admin")

  /// The uid and the provider, or `admin`.
  public var description: String {
    isAdmin ? "admin" : "\(WebcomKey.quoted(uid)) (\(provider))"
  }

  /// Whether both have the same uid, provider, claims and administration status.
  public static func == (lhs: DatasyncAuthentication, rhs: DatasyncAuthentication) -> Bool {
    lhs.storage === rhs.storage
      || (lhs.uid == rhs.uid && lhs.provider == rhs.provider && lhs.isAdmin == rhs.isAdmin
        && lhs.claims == rhs.claims)
  }

  /// Hashes the uid, the provider, the administration status and the claims' names.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(uid)
    hasher.combine(provider)
    hasher.combine(isAdmin)
    hasher.combine(Set(claims.keys))
  }
}
