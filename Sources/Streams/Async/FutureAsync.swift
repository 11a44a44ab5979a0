extension Future where Failure == any Error, Output: Sendable {
  /// A future whose result is that of an `async throws` operation, started at once in a task.
  ///
  /// ```swift
  /// let profile = Future { try await api.fetchProfile() }
  /// ```
  public convenience init(_ operation: @escaping @Sendable () async throws -> Output) {
    self.init { promise in
      Task {
        do {
          promise(.success(try await operation()))
        } catch {
          promise(.failure(error))
        }
      }
    }
  }
}

extension Future where Failure == Never, Output: Sendable {
  /// A future whose value is that of an `async` operation, started at once in a task.
  public convenience init(_ operation: @escaping @Sendable () async -> Output) {
    self.init { promise in
      Task { promise(.success(await operation())) }
    }
  }

  /// The future's value, awaited.
  @inlinable
  public var value: Output {
    get async {
      for await value in values {
        return value
      }
      preconditionFailure("A Future that cannot fail always produces a value")
    }
  }
}
