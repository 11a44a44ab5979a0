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
  /// - Throws: ``WebcomError`` with code `invalidArgument` naming the limit.
  func validate() throws(WebcomError) {
    if let limit, limit < 1 {
      throw WebcomError(
        .invalidArgument,
        "the children constraint \(self) has a limit of \(limit); it must be at least 1")
    }
  }

  /// The ranks (positions in key order) of the children of `object` inside the window.
  ///
  /// A limit below 1 gives an empty window.
  func window(in object: JSONObject) -> Range<Int> {
    let count = object.count
    switch self {
    case .all:
      return 0..<count
    case .first(let limit):
      return 0..<min(count, max(limit, 0))
    case .last(let limit):
      return max(0, count - max(limit, 0))..<count
    case .startAt(let key, let limit):
      let start = object.rank(of: key)
      guard let limit else { return start..<count }
      return start..<min(count, start + max(limit, 0))
    case .endAt(let key, let limit):
      let end = object.rank(of: key) + (object[key] == nil ? 0 : 1)
      guard let limit else { return 0..<end }
      return max(0, end - max(limit, 0))..<end
    }
  }
}
