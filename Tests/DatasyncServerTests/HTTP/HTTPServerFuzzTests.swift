import Datasync
import Foundation
import Testing

@testable import DatasyncServer

/// A bounded, seeded fuzz of the request parser over real sockets: random bytes and mutated
/// valid requests, alone or pipelined. The server must answer only with statuses it documents,
/// never 500, never crash, and still serve a valid request afterwards.
@Suite struct HTTPServerFuzzTests {
  private static let templates: [String] = [
    "GET /rooms/general/messages.json?orderBy=%22%24key%22&limitToFirst=2 HTTP/1.1\r\n"
      + "Host: localhost\r\nAccept: application/json\r\n\r\n",
    "PUT /users/ada.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
      + "Content-Length: 15\r\n\r\n{\"name\":\"Ada\"}",
    "POST /list.json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "4\r\n\"abc\r\n2\r\nd\"\r\n0\r\n\r\n",
    "PATCH /a/b.json?print=silent HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
      + "Expect: 100-continue\r\n\r\n{}",
    "GET /stream.json HTTP/1.0\r\nConnection: keep-alive\r\nAccept: text/event-stream\r\n\r\n",
    "DELETE /x.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
  ]

  private static let allowedStatuses: Set<Int> = [
    100, 200, 400, 408, 413, 414, 417, 431, 501, 505,
  ]

  private static func mutate(_ bytes: [UInt8], using random: inout SeededRandom) -> [UInt8] {
    var bytes = bytes
    let interesting: [UInt8] =
      Array(" \r\n:%;?&=/\t\u{0}\u{7F}0123456789abcdefHTTP".utf8) + [0xFF, 0xC3]
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      guard !bytes.isEmpty else { break }
      let position = Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<6, using: &random) {
      case 0: bytes[position] = UInt8.random(in: 0...255, using: &random)
      case 1: bytes.insert(interesting.randomElement(using: &random)!, at: position)
      case 2: bytes.remove(at: position)
      case 3:
        let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
        bytes.insert(contentsOf: bytes[position..<end], at: position)
      case 4: bytes.removeSubrange(position...)
      default: bytes.insert(contentsOf: [0x0D, 0x0A], at: position)
      }
    }
    return bytes
  }

  private static func randomRequest(using random: inout SeededRandom) -> [UInt8] {
    switch Int.random(in: 0..<10, using: &random) {
    case 0:
      return (0..<Int.random(in: 0...600, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
    case 1:
      // Several requests back to back, some mutated.
      return (0..<Int.random(in: 2...5, using: &random)).flatMap { _ in
        let template = Array(templates.randomElement(using: &random)!.utf8)
        return Bool.random(using: &random) ? mutate(template, using: &random) : template
      }
    default:
      return mutate(Array(templates.randomElement(using: &random)!.utf8), using: &random)
    }
  }

  /// The statuses of every status line in what the server sent.
  private static func statuses(in bytes: [UInt8]) -> [Int] {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap {
      Int($0.prefix(3))
    }
  }

  @Test(arguments: [UInt64(1), 2, 3, 4])
  func randomAndMutatedRequestsNeverBreakTheServer(seed: UInt64) throws {
    let server = try startServer(
      {
        $0.readTimeout = .milliseconds(500)
        $0.maxRequestBodyBytes = 4_096
        $0.maxHeaderBytes = 2_048
      },
      handler: { request, responder in responder.respond(HTTPResponse(body: request.body)) })
    var random = SeededRandom(seed: seed)
    for index in 0..<100 {
      let request = Self.randomRequest(using: &random)
      let client = try TestHTTPClient(port: server.port)
      try client.send(request)
      client.shutdownWrite()
      let answer = try client.readUntilClose()
      let statuses = Self.statuses(in: answer)
      #expect(
        statuses.allSatisfy(Self.allowedStatuses.contains),
        "case \(index) of seed \(seed): \(statuses) for \(String(decoding: request, as: UTF8.self).debugDescription)"
      )
    }
    let client = try TestHTTPClient(port: server.port)
    try client.send("PUT /still/alive HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok")
    #expect(try client.readResponse().bodyText == "ok")
  }
}
