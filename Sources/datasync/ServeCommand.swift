import Datasync
import DatasyncServer
import Foundation

/// `datasync serve`: a ``DatabaseServer`` configured from the command line, running until
/// SIGINT or SIGTERM.
struct ServeCommand {
  let options: ServeOptions

  /// The server's configuration, with the rules and tokens files read.
  ///
  /// - Throws: ``UsageError`` for a rules or tokens file that cannot be read or is invalid.
  func configuration() throws(UsageError) -> (DatabaseServer.Configuration, rules: String) {
    var configuration = DatabaseServer.Configuration(host: options.host, port: options.port)
    configuration.dataPath = options.dataPath
    configuration.adminToken = options.adminToken
    let rulesDescription: String
    if options.isOpen {
      configuration.rules = .open
      rulesDescription = "open (everyone may read and write everything)"
    } else if let path = options.rulesPath {
      let text = try Self.read(path, "--rules")
      do {
        configuration.rules = try DatasyncRules(json: String(decoding: text, as: UTF8.self))
      } catch {
        throw UsageError(description: "--rules \(path): \(error.message)")
      }
      rulesDescription = "from \(path)"
    } else {
      configuration.rules = .authenticated
      rulesDescription = "auth != null for read and write (--open for open rules)"
    }
    if let path = options.tokensPath {
      do {
        configuration.tokens = try DatasyncAuthentication.tokens(
          fromDocument: try Self.read(path, "--tokens"))
      } catch let error as UsageError {
        throw error
      } catch let error as WebcomError {
        throw UsageError(description: "--tokens \(path): \(error.message)")
      } catch {
        throw UsageError(description: "--tokens \(path): \(error)")
      }
    }
    return (configuration, rulesDescription)
  }

  /// Starts the server, prints where it listens, and serves until SIGINT or SIGTERM.
  ///
  /// - Returns: The exit status: 0 after a clean stop.
  func run() async throws -> Int32 {
    var (configuration, rules) = try configuration()
    if options.isVerbose {
      configuration.requestLog = { line in Self.print(line) }
    }
    let signals = SignalWaiter(signals: [SIGINT, SIGTERM])
    let server = try DatabaseServer(configuration: configuration)
    Self.print("datasync serve: data \(options.dataPath), rules \(rules)")
    Self.print("admin token: \(options.adminToken) (Authorization: Bearer \(options.adminToken))")
    if options.adminToken == "owner" && !Self.isLoopback(options.host) {
      Self.print(
        "warning: the admin token is the well-known \"owner\" and the server listens beyond "
          + "this machine: pass --admin-token with a secret")
    }
    Self.print("listening on http://\(Self.hostForURL(server.host)):\(server.port)")
    let signal = await signals.next()
    Self.print("received \(signal == SIGINT ? "SIGINT" : "SIGTERM"): stopping")
    server.stop()
    Self.print("stopped")
    return 0
  }

  private static func read(_ path: String, _ option: String) throws(UsageError) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw UsageError(description: "\(option) \(path): the file cannot be read")
    }
    return Array(data)
  }

  private static func isLoopback(_ host: String) -> Bool {
    host == "localhost" || host.hasPrefix("127.") || host == "::1"
  }

  private static func hostForURL(_ host: String) -> String {
    host.contains(":") ? "[\(host)]" : host
  }

  /// Prints a line on the standard output at once (it is often a pipe).
  private static func print(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}

/// Waits for process signals delivered through Dispatch (their default action disabled).
private final class SignalWaiter {
  private let sources: [any DispatchSourceSignal]
  private let received = AsyncStream<Int32>.makeStream()

  init(signals: [Int32]) {
    let continuation = received.continuation
    sources = signals.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { continuation.yield(number) }
      source.resume()
      return source
    }
  }

  /// The next signal received.
  func next() async -> Int32 {
    for await number in received.stream { return number }
    return SIGTERM
  }
}
