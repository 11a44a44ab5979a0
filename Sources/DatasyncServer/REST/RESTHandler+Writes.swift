import Datasync

/// Writes: `PUT`, `POST`, `PATCH`, `DELETE`, and conditional writes (`if-match`).
extension RESTHandler {
  func put(_ request: RESTRequest, into database: DatasyncDatabase) throws(RESTError)
    -> HTTPResponse
  {
    let value = try Self.parse(request.body)
    if let expected = request.ifMatch {
      return try conditionallySet(value, request, expected: expected, database: database)
    }
    let announced = try database.hostedWrite(.set(request.path, value), token: request.token)
      .mapError(RESTError.init).get()
    return answerSet(request, written: Self.value(announced, default: value))
  }

  func delete(_ request: RESTRequest, from database: DatasyncDatabase) throws(RESTError)
    -> HTTPResponse
  {
    if let expected = request.ifMatch {
      return try conditionallySet(.null, request, expected: expected, database: database)
    }
    _ = try database.hostedWrite(.set(request.path, .null), token: request.token)
      .mapError(RESTError.init).get()
    return answerSet(request, written: .null)
  }

  func push(_ request: RESTRequest, into database: DatasyncDatabase) throws(RESTError)
    -> HTTPResponse
  {
    if request.ifMatch != nil {
      throw RESTError(.badRequest, "if-match is accepted on PUT and DELETE only")
    }
    let value = try Self.parse(request.body)
    let key = WebcomKey.nextPushIdentifier()
    _ = try database.hostedWrite(.set(request.path.appending(key), value), token: request.token)
      .mapError(RESTError.init).get()
    let pretty = request.parameters.print == .pretty
    let body = JSONValue.jsonBytes(
      ofMembers: [(key: "name", value: .string(key.value))], pretty: pretty)
    return Self.json(body, print: request.parameters.print)
  }

  func merge(_ request: RESTRequest, into database: DatasyncDatabase) throws(RESTError)
    -> HTTPResponse
  {
    if request.ifMatch != nil {
      throw RESTError(.badRequest, "if-match is accepted on PUT and DELETE only")
    }
    let entries: [MergeEntry]
    do {
      entries = try JSONValue.parsingMergeBody(request.body)
    } catch {
      throw RESTError(.badRequest, error.message)
    }
    let announced = try database.hostedWrite(.merge(request.path, entries), token: request.token)
      .mapError(RESTError.init).get()
    var written = entries
    if case .merge(_, let resolved)? = announced { written = resolved }
    let pretty = request.parameters.print == .pretty
    return Self.json(
      MergeEntry.jsonBytes(of: written, pretty: pretty), print: request.parameters.print)
  }

  /// Sets `value` (null deletes) if the data's entity tag is `expected`: else 412 with the
  /// current data and its tag. A concurrent write between the check and the write makes it
  /// check again.
  private func conditionallySet(
    _ value: JSONValue, _ request: RESTRequest, expected: String, database: DatasyncDatabase
  ) throws(RESTError) -> HTTPResponse {
    var current = JSONValue.null
    for _ in 0..<Self.conditionalAttempts {
      current = try database.hostedRead(request.path, token: request.token)
        .mapError(RESTError.init).get()
      guard RESTRequest.unquoted(current.entityTag) == expected else { break }
      let outcome = database.hostedWrite(
        .compareAndSet(request.path, expected: current, value: value), token: request.token)
      switch outcome {
      case .success(let announced):
        return answerSet(request, written: Self.value(announced, default: value), entityTag: true)
      case .failure(let refusal) where refusal.error.code == .transactionAborted:
        continue
      case .failure(let refusal):
        throw RESTError(refusal)
      }
    }
    return HTTPResponse(
      status: .preconditionFailed,
      headers: [
        "ETag": current.entityTag, "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "no-cache",
      ],
      body: current.jsonBytes())
  }

  /// The answer to a set: the value written (server values resolved), its entity tag when
  /// asked for.
  private func answerSet(_ request: RESTRequest, written: JSONValue, entityTag: Bool = false)
    -> HTTPResponse
  {
    var headers: HTTPHeaders = [:]
    if entityTag || request.wantsEntityTag { headers["ETag"] = written.entityTag }
    let pretty = request.parameters.print == .pretty
    return Self.json(
      written.jsonBytes(pretty: pretty), print: request.parameters.print, headers: headers)
  }

  /// The value a set wrote, from what the back end announced.
  private static func value(_ announced: WriteOperation?, default value: JSONValue) -> JSONValue {
    if case .set(_, let written)? = announced { return written }
    return value
  }

  private static func parse(_ body: [UInt8]) throws(RESTError) -> JSONValue {
    do {
      return try JSONValue.parsingRequestBody(body)
    } catch {
      throw RESTError(.badRequest, error.message)
    }
  }
}
