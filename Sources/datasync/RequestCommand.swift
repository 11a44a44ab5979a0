import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `datasync get|set|merge|push|delete`: one REST request; the answer's JSON on the standard
/// output, or the server's error on the standard error.
struct RequestCommand {
  let options: RemoteCommandOptions

  /// Runs the request; returns the exit status (0 answered, 1 refused or unreachable).
  ///
  /// - Throws: ``UsageError`` for a value that is not JSON or a standard input that cannot be
  ///   read.
  func run() async throws(UsageError) -> Int32 {
    let body = try options.value.map { text throws(UsageError) in try Self.json(text) }
    var request = URLRequest(url: Self.url(options), timeoutInterval: 60)
    request.httpMethod = Self.method(options.action)
    request.httpBody = body
    if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
    let answer: (Data, URLResponse)
    do {
      answer = try await URLSession.shared.data(for: request)
    } catch {
      printError("cannot reach \(options.database.absoluteString): \(error.localizedDescription)")
      return 1
    }
    let status = (answer.1 as? HTTPURLResponse)?.statusCode ?? 0
    let text = String(decoding: answer.0, as: UTF8.self)
    guard (200..<300).contains(status) else {
      printError("\(Self.errorMessage(in: answer.0) ?? text) (HTTP \(status))")
      return 1
    }
    FileHandle.standardOutput.write(Data((text.isEmpty ? "null" : text).utf8 + [0x0A]))
    return 0
  }

  /// The URL of the location with the namespace, the token and the read parameters.
  static func url(_ options: RemoteCommandOptions) -> URL {
    var components = URLComponents(url: options.database, resolvingAgainstBaseURL: false)!
    components.percentEncodedPath = options.path == "/" ? "/.json" : options.path + ".json"
    var items = options.parameters
    if let namespace = options.namespace {
      items.append(URLQueryItem(name: "ns", value: namespace))
    }
    if let token = options.token { items.append(URLQueryItem(name: "auth", value: token)) }
    if !items.isEmpty { components.queryItems = items }
    return components.url!
  }

  private static func method(_ action: RemoteCommandOptions.Action) -> String {
    switch action {
    case .get, .watch: "GET"
    case .set: "PUT"
    case .merge: "PATCH"
    case .push: "POST"
    case .delete: "DELETE"
    }
  }

  /// The value argument as JSON bytes (`-`: the standard input).
  private static func json(_ argument: String) throws(UsageError) -> Data {
    let data: Data
    if argument == "-" {
      do {
        data = try FileHandle.standardInput.readToEnd() ?? Data()
      } catch {
        throw UsageError(description: "cannot read the standard input: \(error)")
      }
    } else {
      data = Data(argument.utf8)
    }
    guard (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil else {
      let shown = argument == "-" ? "the standard input" : "'\(argument)'"
      throw UsageError(description: "\(shown) is not valid JSON")
    }
    return data
  }

  /// The `error` member of a JSON error body.
  static func errorMessage(in body: Data) -> String? {
    (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? String
  }
}

/// Prints `datasync: error: <message>` on the standard error.
func printError(_ message: String) {
  FileHandle.standardError.write(Data("datasync: error: \(message)\n".utf8))
}
