import Datasync

/// A request the REST handler answers with an error: `{"error": message}` and a status.
struct RESTError: Error, Sendable {
  let status: HTTPStatus
  let message: String
  /// Extra headers of the answer (`Allow` for 405).
  var headers: HTTPHeaders = [:]

  init(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = [:]) {
    self.status = status
    self.message = message
    self.headers = headers
  }

  /// The answer to a refusal of the back end: 401 for a credential, 403 for the rules, 400
  /// for invalid data, paths, keys or arguments, 412 for a failed condition, 500 otherwise.
  init(_ refusal: HostedRefusal) {
    if refusal.isAuthentication {
      self.init(.unauthorized, refusal.error.message)
      return
    }
    self.init(RESTError.status(of: refusal.error.code), refusal.error.message)
  }

  /// The status of a back-end error.
  static func status(of code: WebcomError.Code) -> HTTPStatus {
    switch code {
    case .invalidPath, .invalidKey, .invalidValue, .invalidArgument, .notANumber,
      .encodingFailed, .decodingFailed:
      .badRequest
    case .permissionDenied:
      .forbidden
    case .transactionAborted, .transactionTooManyRetries:
      .preconditionFailed
    case .writeCancelled, .disconnected, .storageFailed, .internalError:
      .internalServerError
    }
  }

  /// The HTTP response.
  var response: HTTPResponse {
    var response = HTTPResponse.jsonError(status, message: message)
    for (name, value) in headers { response.headers[name] = value }
    return response
  }
}
