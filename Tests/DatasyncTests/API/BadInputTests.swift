import Foundation
import Testing

@testable import Datasync

/// Bad input never crashes and never half-applies: an error through the callback (or thrown),
/// the database unchanged, no event.
@Suite struct BadInputTests {
  struct Unencodable: Encodable {
    func encode(to encoder: any Encoder) throws {
      throw EncodingError.invalidValue(
        self, EncodingError.Context(codingPath: [], debugDescription: "refused"))
    }
  }

  let queue = DispatchQueue(label: "test.bad-input")
  let database = DatasyncDatabase()
  let manager: DatasyncManager
  let node: DatasyncNode
  let recorder = EventRecorder()

  init() throws {
    manager = makeApplication(database: database).datasyncService.createManager()
    node = try manager.nodeThrows(for: "data")
    try waitForResult { [node] in
      node.set(["text": "hello", "n": 1] as [String: AnyEncodable], queue: $0, then: $1)
    }
    node.subscribe(to: .valueChange, queue: queue, onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))
  }

  private func expectUnchanged() throws {
    try waitForResult { node.relativeNode(for: "n")!.increment(queue: $0, then: $1) }
    #expect(recorder.wait(forCount: 2))
    queue.sync {}
    #expect(recorder.recorded.count == 2)
    #expect(database.value(at: try DatasyncPath(parsing: "data/text")) == .string("hello"))
    #expect(database.value(at: try DatasyncPath(parsing: "data")).children?.count == 2)
  }

  private func expectFailure(
    _ code: WebcomError.Code,
    _ start: (DispatchQueue, @escaping (WebcomResult<Void>) -> Void) -> Void
  ) {
    do {
      try waitForResult(start)
      Issue.record("expected \(code)")
    } catch let error as WebcomError {
      #expect(error.code == code, "\(error)")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func invalidPathsGiveNoNode() {
    #expect(manager.node(for: "a/b.c") == nil)
    #expect { try manager.nodeThrows(for: "a\u{7}") } throws: {
      ($0 as? WebcomError)?.code == .invalidPath
    }
    let deep = (0..<40).map { "k\($0)" }.joined(separator: "/")
    #expect(manager.node(for: deep) == nil)
  }

  @Test func nanIsRejected() throws {
    expectFailure(.invalidValue) {
      node.relativeNode(for: "x")!.set(Double.nan, queue: $0, then: $1)
    }
    expectFailure(.invalidValue) { node.merge(with: ["x": Double.infinity], queue: $0, then: $1) }
    do {
      _ = try waitForResult { node.increment(by: .nan, queue: $0, then: $1) }
      Issue.record("expected invalidValue")
    } catch let error as WebcomError {
      #expect(error.code == .invalidValue)
    }
    try expectUnchanged()
  }

  @Test func forbiddenKeysInsideObjectsAreRejected() throws {
    expectFailure(.invalidKey) { node.set(["ok": ["bad/key": 1]], queue: $0, then: $1) }
    expectFailure(.invalidKey) { node.merge(with: ["a#b": 1], queue: $0, then: $1) }
    expectFailure(.invalidKey) {
      node.merge(with: ["a[b": nil] as [String: Int?], queue: $0, then: $1)
    }
    #expect(node.push(["x.y": 1], queue: queue) == nil)
    try expectUnchanged()
  }

  @Test func unencodableValuesAreRejected() throws {
    expectFailure(.encodingFailed) { node.set(Unencodable(), queue: $0, then: $1) }
    expectFailure(.encodingFailed) { node.merge(with: Unencodable(), queue: $0, then: $1) }
    try expectUnchanged()
  }

  @Test func incrementOfAStringFailsWithNotANumber() throws {
    do {
      _ = try waitForResult { node.relativeNode(for: "text")!.increment(queue: $0, then: $1) }
      Issue.record("expected notANumber")
    } catch let error as WebcomError {
      #expect(error.code == .notANumber)
      #expect(error.message.contains("/data/text"))
    }
    try expectUnchanged()
  }

  @Test func decodingFailuresAreReported() throws {
    do {
      _ = try waitForResult {
        node.relativeNode(for: "text")!.decodedValue(as: Int.self, queue: $0, then: $1)
      }
      Issue.record("expected decodingFailed")
    } catch let error as WebcomError {
      #expect(error.code == .decodingFailed)
    }
  }
}

/// Mixed JSON for fixtures.
enum AnyEncodable: Encodable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  case string(String)
  case int(Int)

  init(stringLiteral value: String) { self = .string(value) }
  init(integerLiteral value: Int) { self = .int(value) }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    }
  }
}
