import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP client of a remote back end: one `URLSession` whose data-task delegate hands each
/// task's response head, body bytes (as they arrive, not buffered) and end to the task's
/// handlers, in order, on the owner's queue.
final class RemoteTransport: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  /// What a task reports.
  struct Handlers: Sendable {
    let response: @Sendable (HTTPURLResponse) -> Void
    let data: @Sendable (Data) -> Void
    let completion: @Sendable ((any Error)?) -> Void
  }

  private let queue: DispatchQueue
  /// Protects `handlers` and `session`.
  private let lock = NSLock()
  private var handlers: [Int: Handlers] = [:]
  private var session: URLSession?

  /// The most connections to the server at once (every stream holds one).
  static let maximumConnections = 4096

  /// A transport whose handlers run on `queue`.
  init(queue: DispatchQueue) {
    self.queue = queue
    super.init()
    let operations = OperationQueue()
    operations.maxConcurrentOperationCount = 1
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.timeoutIntervalForResource = .greatestFiniteMagnitude
    // Each listened location holds a connection open: no limit but the server's.
    configuration.httpMaximumConnectionsPerHost = Self.maximumConnections
    session = URLSession(configuration: configuration, delegate: self, delegateQueue: operations)
  }

  /// Starts a request; returns the task (to cancel it), nil once invalidated.
  func start(_ request: URLRequest, handlers: Handlers) -> URLSessionDataTask? {
    lock.withLock { () -> URLSessionDataTask? in
      guard let session else { return nil }
      let task = session.dataTask(with: request)
      self.handlers[task.taskIdentifier] = handlers
      return task
    }.map { task in
      task.resume()
      return task
    }
  }

  /// Cancels every task and releases the session; nothing is reported afterwards.
  func invalidate() {
    let session = lock.withLock {
      defer {
        self.session = nil
        handlers = [:]
      }
      return self.session
    }
    session?.invalidateAndCancel()
  }

  private func handlers(of task: URLSessionTask, removing: Bool = false) -> Handlers? {
    lock.withLock {
      removing
        ? handlers.removeValue(forKey: task.taskIdentifier) : handlers[task.taskIdentifier]
    }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    if let handlers = handlers(of: dataTask), let response = response as? HTTPURLResponse {
      queue.async { handlers.response(response) }
    }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard let handlers = handlers(of: dataTask) else { return }
    queue.async { handlers.data(data) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    guard let handlers = handlers(of: task, removing: true) else { return }
    queue.async { handlers.completion(error) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping (URLRequest?) -> Void
  ) {
    completionHandler(request)
  }
}
