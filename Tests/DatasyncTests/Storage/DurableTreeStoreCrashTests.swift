import Foundation
import Testing

@testable import Datasync

/// A writer process is killed with SIGKILL in the middle of a stream of commits; the file then
/// holds every write the writer had acknowledged, and nothing half-applied.
///
/// The writer is this test binary, started again to run only ``writerProcess()`` (which runs
/// only when the environment names a database file): it commits writes one after the other and
/// prints `ack N` once write N's commit has returned.
@Suite(.timeLimit(.minutes(3))) struct DurableTreeStoreCrashTests {
  private static let fileVariable = "DATASYNC_STORAGE_CRASH_WRITER_FILE"
  private static let durabilityVariable = "DATASYNC_STORAGE_CRASH_WRITER_DURABILITY"
  /// More writes than the parent waits for, so that the writer is always killed mid-stream.
  private static let writerLimit = 200_000

  /// The changes of write `index`: sets of small objects, two-change commits that must stay
  /// together, deletes, and overwrites of a shared counter.
  static func changes(ofWrite index: Int) -> [(path: DatasyncPath, value: JSONValue)] {
    let key = WebcomKey(String(index))
    switch index % 6 {
    case 0, 3:
      let item = JSONObject().setting(.int(Int64(index)), for: "n")
        .setting(.string("write \(index)"), for: "text")
      return [(DatasyncPath(validatedKeys: ["items", key]), .object(item))]
    case 1, 4:
      return [
        (DatasyncPath(validatedKeys: ["counter"]), .int(Int64(index))),
        (DatasyncPath(validatedKeys: ["log", key]), .double(Double(index) / 4)),
      ]
    case 2:
      return [(DatasyncPath(validatedKeys: ["items", WebcomKey(String(index - 2))]), .null)]
    default:
      return [(DatasyncPath(validatedKeys: ["flags", key]), .bool(index % 2 == 1))]
    }
  }

  /// The tree after writes `0..<count`.
  static func tree(afterWrites count: Int) -> JSONValue {
    var tree = JSONValue.null
    for index in 0..<count {
      for change in changes(ofWrite: index) {
        tree = tree.setting(change.value, at: change.path.keys)
      }
    }
    return tree
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment[fileVariable] != nil))
  func writerProcess() throws {
    let environment = ProcessInfo.processInfo.environment
    let file = try #require(environment[Self.fileVariable])
    let durability: DurableTreeStore.Durability =
      environment[Self.durabilityVariable] == "powerLoss" ? .powerLoss : .processCrash
    let store = try DurableTreeStore(path: file, durability: durability)
    for index in 0..<Self.writerLimit {
      try store.commit(Self.changes(ofWrite: index))
      FileHandle.standardOutput.write(Data("ack \(index)\n".utf8))
    }
  }

  /// Whether this test binary can be started again as a plain executable (on Apple platforms it is
  /// a bundle loaded by a runner).
  private static let canStartTheWriter: Bool = {
    #if os(Linux)
      true
    #else
      false
    #endif
  }()

  @Test(
    .enabled(if: canStartTheWriter),
    arguments: [
      (150, DurableTreeStore.Durability.processCrash), (600, .processCrash), (200, .powerLoss),
    ])
  func everyAcknowledgedWriteSurvivesKill9(
    acknowledgements: Int, durability: DurableTreeStore.Durability
  )
    throws
  {
    let directory = try TemporaryDirectory()
    let file = directory.path("crash.sqlite")
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    writer.arguments = [
      "--testing-library", "swift-testing", "--filter", "DurableTreeStoreCrashTests/writerProcess",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment[Self.fileVariable] = file
    environment[Self.durabilityVariable] = durability == .powerLoss ? "powerLoss" : "processCrash"
    writer.environment = environment
    let output = Pipe()
    writer.standardOutput = output
    writer.standardError = FileHandle.nullDevice
    try writer.run()

    var pending = ""
    var lastAcknowledged = -1
    var killed = false
    while true {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      pending += String(decoding: data, as: UTF8.self)
      // Complete lines only: the last one may still be arriving.
      guard let lastNewline = pending.lastIndex(of: "\n") else { continue }
      for line in pending[..<lastNewline].split(separator: "\n") where line.hasPrefix("ack ") {
        lastAcknowledged = max(lastAcknowledged, Int(line.dropFirst(4)) ?? -1)
      }
      pending = String(pending[pending.index(after: lastNewline)...])
      if !killed && lastAcknowledged + 1 >= acknowledgements {
        kill(writer.processIdentifier, SIGKILL)
        killed = true
      }
    }
    writer.waitUntilExit()
    #expect(killed, "the writer ended after \(lastAcknowledged + 1) writes, before it was killed")
    #expect(writer.terminationReason == .uncaughtSignal)
    #expect(writer.terminationStatus == SIGKILL)
    try #require(lastAcknowledged + 1 >= acknowledgements)

    // The write after the last acknowledgement may have been committed before the kill, its
    // acknowledgement not yet printed: the file holds exactly one of the two trees.
    let loaded = try DurableTreeStore(path: file, durability: durability).load()
    let acknowledged = Self.tree(afterWrites: lastAcknowledged + 1)
    let withNext = Self.tree(afterWrites: lastAcknowledged + 2)
    #expect(loaded == acknowledged || loaded == withNext, "after \(lastAcknowledged + 1) acks")
  }
}
