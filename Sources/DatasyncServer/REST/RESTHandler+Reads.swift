import Datasync

/// Reads: `GET`, with queries, `shallow` (of the query's answer), `print` and entity tags.
extension RESTHandler {
  func read(_ request: RESTRequest, from database: DatasyncDatabase) throws(RESTError)
    -> HTTPResponse
  {
    let value = try database.hostedRead(request.path, token: request.token)
      .mapError(RESTError.init).get()
    var headers: HTTPHeaders = [:]
    if request.wantsEntityTag || request.ifNoneMatch != nil {
      let tag = value.entityTag
      headers["ETag"] = tag
      if let expected = request.ifNoneMatch, expected == RESTRequest.unquoted(tag) {
        return HTTPResponse(status: .notModified, headers: headers)
      }
    }
    var shaped = value
    if let query = request.parameters.query { shaped = query.apply(to: value) }
    if request.parameters.isShallow { shaped = shaped.shallow }
    let pretty = request.parameters.print == .pretty
    return Self.json(
      shaped.jsonBytes(pretty: pretty), print: request.parameters.print, headers: headers)
  }
}
