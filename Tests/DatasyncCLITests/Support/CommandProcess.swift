import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a finished `datasync` command printed and its exit status.
struct CommandResult {
  let status: Int32
  let output: String
  let error: String
}

/// Expects `run` to be a usage error: status 2, nothing printed, and one line on the standard
/// error saying so.
func expectOneLineUsageError(
  _ run: CommandResult, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(run.status == 2, sourceLocation: sourceLocation)
  #expect(run.output.isEmpty, sourceLocation: sourceLocation)
  #expect(run.error.hasPrefix("datasync: error: "), sourceLocation: sourceLocation)
  #expect(run.error.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
}

/// Runs `datasync` with `arguments` (and `input` on its standard input) until it exits (at most
/// 30 seconds).
func runDatasync(_ arguments: [String], input: String? = nil) throws -> CommandResult {
  let process = Process()
  process.executableURL = datasyncExecutable()
  process.arguments = arguments
  let output = Pipe()
  let error = Pipe()
  let inputPipe = Pipe()
  process.standardOutput = output
  process.standardError = error
  process.standardInput = inputPipe
  try process.run()
  if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
  try inputPipe.fileHandleForWriting.close()
  let printed = LineCollector(output.fileHandleForReading)
  let complained = LineCollector(error.fileHandleForReading)
  let exited = DispatchSemaphore(value: 0)
  process.terminationHandler = { _ in exited.signal() }
  if !process.isRunning { exited.signal() }
  guard exited.wait(timeout: .now() + 30) == .success else {
    process.terminate()
    throw ServeTestError(description: "datasync \(arguments.joined(separator: " ")) hung")
  }
  process.waitUntilExit()
  return CommandResult(
    status: process.terminationStatus, output: printed.waitForEnd(),
    error: complained.waitForEnd())
}

/// The lines a process prints, collected by a reader thread until the end of its output.
///
/// `condition` protects `text` and `hasEnded`.
final class LineCollector: @unchecked Sendable {
  private let condition = NSCondition()
  private var text = ""
  private var hasEnded = false

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      while true {
        let data = handle.availableData
        condition.withLock {
          if data.isEmpty { hasEnded = true } else { text += String(decoding: data, as: UTF8.self) }
          condition.broadcast()
        }
        if data.isEmpty { break }
      }
    }
  }

  /// The complete lines printed so far.
  var lines: [String] {
    condition.withLock {
      text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
  }

  /// Waits (at most 20 seconds) until a complete line satisfies `predicate`; returns the lines.
  @discardableResult
  func wait(until predicate: (String) -> Bool) -> [String] {
    let deadline = Date(timeIntervalSinceNow: 20)
    condition.lock()
    defer { condition.unlock() }
    while true {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(
        String.init)
      if lines.contains(where: predicate) || hasEnded || !condition.wait(until: deadline) {
        return lines
      }
    }
  }

  /// The whole text once the output ended (at most 20 seconds).
  func waitForEnd() -> String {
    let deadline = Date(timeIntervalSinceNow: 20)
    return condition.withLock {
      while !hasEnded && condition.wait(until: deadline) {}
      return text
    }
  }
}
