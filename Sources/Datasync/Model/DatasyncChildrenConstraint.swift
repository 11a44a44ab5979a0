/// The window of children a child subscription follows, in key order.
///
/// Children entering the window arrive as additions and children leaving it as removals.
public enum DatasyncChildrenConstraint: Sendable, Hashable {
  /// Every child.
  case all
  /// The first `limit` children.
  case first(limit: Int)
  /// The last `limit` children.
  case last(limit: Int)
  /// The children whose key is at or after `key`, at most the first `limit` of them.
  case startAt(key: WebcomKey, limit: Int? = nil)
  /// The children whose key is at or before `key`, at most the last `limit` of them.
  case endAt(key: WebcomKey, limit: Int? = nil)
}

extension DatasyncChildrenConstraint {
  /// The limit of the constraint, `nil` when unlimited.
  var limit: Int? {
    switch self {
    case .all: nil
    case .first(let limit), .last(let limit): limit
    case .startAt(_, let limit), .endAt(_, let limit): limit
    }
  }

  /// Checks the constraint: a limit must be at least 1.
  ///
  /// - Throws: ``WebcomError`` with code `invalidArgument` naming the constraint and its limit.
  func validate() throws(WebcomError) {
    if let limit, limit < 1 {
      throw WebcomError(
        .invalidArgument,
        "the children constraint \(summary) has a limit of \(limit); it must be at least 1 "
          + "(Int.max for every child)")
    }
  }

  /// The constraint as written in Swift, for messages.
  var summary: String {
    func limitText(_ limit: Int?) -> String { limit.map { ", limit: \($0)" } ?? "" }
    switch self {
    case .all: return ".all"
    case .first(let limit): return ".first(limit: \(limit))"
    case .last(let limit): return ".last(limit: \(limit))"
    case .startAt(let key, let limit):
      return ".startAt(key: \(WebcomKey.quoted(key.value))\(limitText(limit)))"
    case .endAt(let key, let limit):
      return ".endAt(key: \(WebcomKey.quoted(key.value))\(limitText(limit)))"
    }
  }

  /// The ranks (positions in key order) of the children of `object` inside the window.
  ///
  /// A limit is an upper bound (`Int.max` keeps every child of the window); a limit below 1
  /// gives an empty window. No arithmetic here can overflow, whatever the limit.
  func window(in object: JSONObject) -> Range<Int> {
    let count = object.count
    switch self {
    case .all:
      return 0..<count
    case .first(let limit):
      return 0..<Self.kept(of: count, limit: limit)
    case .last(let limit):
      return count - Self.kept(of: count, limit: limit)..<count
    case .startAt(let key, let limit):
      let start = object.rank(of: key)
      return start..<start + Self.kept(of: count - start, limit: limit ?? .max)
    case .endAt(let key, let limit):
      let end = object.rank(of: key) + (object[key] == nil ? 0 : 1)
      return end - Self.kept(of: end, limit: limit ?? .max)..<end
    }
  }

  /// How many of `available` children a limit keeps.
  private static func kept(of available: Int, limit: Int) -> Int {
    min(available, max(limit, 0))
  }
}
