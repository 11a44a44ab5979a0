import Datasync

/// Reads: `GET`, with `shallow`, queries, `print` and entity tags.
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
    if request.parameters.isShallow { shaped = value.shallow }
    if let query = request.parameters.query { shaped = query.apply(to: value) }
    let pretty = request.parameters.print == .pretty
    return Self.json(
      shaped.jsonBytes(pretty: pretty), print: request.parameters.print, headers: headers)
  }
}
