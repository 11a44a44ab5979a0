/// The tokens file of a server: which identity each token stands for.
extension DatasyncAuthentication {
  /// Reads a tokens document: a JSON object mapping each token (any string) to an identity,
  /// either `{"uid": "…", "provider": "…", "claims": {…}}` (`provider` defaults to `custom`,
  /// `claims` to none) or `{"admin": true}` for ``admin``.
  ///
  /// ```json
  /// {
  ///   "alice-secret": {"uid": "alice"},
  ///   "bob-secret": {"uid": "bob", "provider": "password", "claims": {"moderator": true}},
  ///   "ops-secret": {"admin": true}
  /// }
  /// ```
  ///
  /// - Throws: ``WebcomError`` with code `invalidArgument` naming the token and what is wrong
  ///   (malformed JSON, a missing or empty uid, a member of another type, an unknown member).
  package static func tokens(fromDocument bytes: [UInt8]) throws(WebcomError)
    -> [String: DatasyncAuthentication]
  {
    let entries: [(key: String, value: JSONValue)]
    do {
      entries = try JSONParser.parseMembers(bytes)
    } catch {
      throw WebcomError(
        .invalidArgument,
        "the tokens document must be a JSON object mapping each token to {\"uid\": …} or "
          + "{\"admin\": true}: \(error.message)")
    }
    var tokens: [String: DatasyncAuthentication] = [:]
    for (token, entry) in entries {
      guard !token.isEmpty else {
        throw WebcomError(.invalidArgument, "the tokens document maps an empty token")
      }
      do {
        tokens[token] = try identity(from: entry)
      } catch {
        throw WebcomError(.invalidArgument, "the token \(WebcomKey.quoted(token)) \(error.message)")
      }
    }
    return tokens
  }

  /// An identity from its JSON form: `{"uid": "…", "provider": "…", "claims": {…}}` or
  /// `{"admin": true}`.
  ///
  /// - Throws: ``WebcomError`` with code `invalidArgument` whose message says what is wrong
  ///   (to follow the name of what was read).
  static func identity(from entry: JSONValue) throws(WebcomError) -> DatasyncAuthentication {
    func invalid(_ reason: String) -> WebcomError {
      WebcomError(.invalidArgument, reason)
    }
    guard case .object(let members) = entry else {
      throw invalid("must map to an object ({\"uid\": …} or {\"admin\": true})")
    }
    if let admin = members["admin"] {
      guard admin == .bool(true), members.count == 1 else {
        throw invalid("is an administrator only as {\"admin\": true}, with no other member")
      }
      return .admin
    }
    if let unknown = members.keys.first(where: {
      !["uid", "provider", "claims"].contains($0.value)
    }) {
      throw invalid("has an unknown member \(WebcomKey.quoted(unknown.value))")
    }
    guard case .string(let uid)? = members["uid"], !uid.isEmpty else {
      throw invalid("needs a uid, a non-empty string")
    }
    var provider = "custom"
    if let value = members["provider"] {
      guard case .string(let name) = value else {
        throw invalid("has a provider that is not a string")
      }
      provider = name
    }
    var claims: [String: DatasyncValue] = [:]
    if let value = members["claims"] {
      guard case .object(let object) = value else {
        throw invalid("has claims that are not an object")
      }
      for (name, claim) in object { claims[name.value] = DatasyncValue(claim) }
    }
    return DatasyncAuthentication(uid: uid, provider: provider, claims: claims)
  }

  /// The JSON form of the identity, as ``identity(from:)`` reads it.
  var jsonValue: JSONValue {
    if isAdmin { return .object(JSONObject([(key: "admin", value: .bool(true))])) }
    let members: [JSONObject.Element] = [
      ("claims", token), ("provider", .string(provider)), ("uid", .string(uid)),
    ]
    return .object(JSONObject(members))
  }
}
