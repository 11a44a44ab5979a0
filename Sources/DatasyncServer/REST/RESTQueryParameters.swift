import Datasync

/// The query parameters of a REST request that shape its answer.
///
/// - `print=pretty` (indented JSON) or `print=silent` (`204 No Content`, no body);
/// - `shallow=true` (a read keeps only the first level: see ``JSONValue/shallow``); combined
///   with `orderBy="$key"` and its bounds and limits, the first level of the children the query
///   keeps, so that a client pages through a large node's keys without their subtrees (an
///   extension: hosted databases refuse any parameter next to `shallow`);
/// - `format=export` (the data with its priorities: without priorities, the data itself);
/// - `orderBy` (`"$key"`, `"$value"` or `"child/path"`, JSON-quoted) with `startAt`,
///   `startAfter`, `endAt`, `endBefore`, `equalTo` (JSON values) and `limitToFirst` or
///   `limitToLast` (non-negative integers): see ``ValueQuery``.
///
/// Other parameters (`auth` and `ns` aside) are ignored, as hosted databases ignore those they
/// do not know.
package struct RESTQueryParameters: Sendable {
  /// The names of the query parameters that shape a read (neither `auth` nor `ns`).
  package static let readParameterNames = ["shallow", "print", "format", "orderBy"] + filterNames

  enum Print: Sendable {
    case compact
    case pretty
    case silent
  }

  var print = Print.compact
  var isShallow = false
  var query: ValueQuery?

  /// The parameters of a request.
  ///
  /// - Throws: ``RESTError`` (400) naming the parameter and what is wrong.
  init(_ items: [HTTPQueryItem]) throws(RESTError) {
    var values: [String: String] = [:]
    for item in items {
      if let previous = values[item.name], previous != item.value {
        throw RESTError(.badRequest, "the parameter \(item.name) is given twice")
      }
      values[item.name] = item.value
    }
    switch values["print"] {
    case nil: break
    case "pretty": print = .pretty
    case "silent": print = .silent
    case let other?:
      throw RESTError(
        .badRequest,
        "print must be \"pretty\" or \"silent\", not \(JSONStringLiteral.quoted(other))")
    }
    switch values["format"] {
    case nil, "export": break
    case let other?:
      throw RESTError(
        .badRequest, "format must be \"export\", not \(JSONStringLiteral.quoted(other))")
    }
    switch values["shallow"] {
    case nil, "false": break
    case "true": isShallow = true
    case let other?:
      throw RESTError(
        .badRequest, "shallow must be true or false, not \(JSONStringLiteral.quoted(other))")
    }
    query = try Self.query(from: values)
    if isShallow, values["format"] != nil || (query != nil && query?.order != .key) {
      throw RESTError(
        .badRequest,
        "shallow can be combined with orderBy \"$key\" and its filters only, not with "
          + "another order or format=export")
    }
  }

  private static let filterNames = [
    "startAt", "startAfter", "endAt", "endBefore", "equalTo", "limitToFirst", "limitToLast",
  ]

  private static func query(from values: [String: String]) throws(RESTError) -> ValueQuery? {
    guard let orderText = values["orderBy"] else {
      if let name = filterNames.first(where: { values[$0] != nil }) {
        throw RESTError(.badRequest, "\(name) needs orderBy (\"$key\", \"$value\" or a child path)")
      }
      return nil
    }
    let order = try self.order(orderText)
    if values["equalTo"] != nil,
      let name = ["startAt", "startAfter", "endAt", "endBefore"].first(where: { values[$0] != nil })
    {
      throw RESTError(.badRequest, "equalTo cannot be combined with \(name)")
    }
    if values["startAt"] != nil && values["startAfter"] != nil {
      throw RESTError(.badRequest, "startAt cannot be combined with startAfter")
    }
    if values["endAt"] != nil && values["endBefore"] != nil {
      throw RESTError(.badRequest, "endAt cannot be combined with endBefore")
    }
    if values["limitToFirst"] != nil && values["limitToLast"] != nil {
      throw RESTError(.badRequest, "limitToFirst cannot be combined with limitToLast")
    }
    var start: ValueQuery.Bound?
    var end: ValueQuery.Bound?
    if let text = values["equalTo"] {
      let value = try bound(text, "equalTo")
      start = ValueQuery.Bound(value, isInclusive: true)
      end = ValueQuery.Bound(value, isInclusive: true)
    }
    if let text = values["startAt"] {
      start = ValueQuery.Bound(try bound(text, "startAt"), isInclusive: true)
    }
    if let text = values["startAfter"] {
      start = ValueQuery.Bound(try bound(text, "startAfter"), isInclusive: false)
    }
    if let text = values["endAt"] {
      end = ValueQuery.Bound(try bound(text, "endAt"), isInclusive: true)
    }
    if let text = values["endBefore"] {
      end = ValueQuery.Bound(try bound(text, "endBefore"), isInclusive: false)
    }
    var limit: ValueQuery.Limit?
    if let text = values["limitToFirst"] { limit = .first(try count(text, "limitToFirst")) }
    if let text = values["limitToLast"] { limit = .last(try count(text, "limitToLast")) }
    do {
      return try ValueQuery(order: order, start: start, end: end, limit: limit)
    } catch {
      throw RESTError(.badRequest, error.message)
    }
  }

  private static func order(_ text: String) throws(RESTError) -> ValueQuery.Order {
    guard case .string(let name) = try? JSONValue.parsingRequestBody(Array(text.utf8)) else {
      throw RESTError(
        .badRequest,
        "orderBy must be a JSON string (\"$key\", \"$value\" or a child path), not "
          + JSONStringLiteral.quoted(text))
    }
    switch name {
    case "$key": return .key
    case "$value": return .value
    case "$priority":
      throw RESTError(.badRequest, "orderBy \"$priority\" is not supported: data has no priorities")
    default:
      do throws(WebcomError) {
        let path = try DatasyncPath(restPath: name)
        guard !path.isRoot else { throw WebcomError(.invalidPath, "the path is empty") }
        return .child(path.keys)
      } catch {
        throw RESTError(
          .badRequest,
          "orderBy \(JSONStringLiteral.quoted(name)) is not a child path: \(error.message)")
      }
    }
  }

  private static func bound(_ text: String, _ name: String) throws(RESTError) -> JSONValue {
    do throws(WebcomError) {
      let value = try JSONValue.parsingRequestBody(Array(text.utf8))
      if case .object = value {
        throw WebcomError(.invalidArgument, "an object cannot bound a query")
      }
      return value
    } catch {
      throw RESTError(
        .badRequest,
        "\(name) must be a JSON value (a quoted string, a number, true, false or null), not "
          + "\(JSONStringLiteral.quoted(text)): \(error.message)")
    }
  }

  private static func count(_ text: String, _ name: String) throws(RESTError) -> Int {
    guard let count = Int(text), count >= 0 else {
      throw RESTError(
        .badRequest, "\(name) must be a non-negative integer, not \(JSONStringLiteral.quoted(text))"
      )
    }
    return count
  }
}
