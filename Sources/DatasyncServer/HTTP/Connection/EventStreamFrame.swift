import Datasync

/// Writes Server-Sent Events frames, optionally wrapped as one HTTP chunk.
enum EventStreamFrame {
  /// An event: `id:` and `event:` lines when given, one `data:` line per line of `data` (split
  /// at CRLF, CR or LF), then an empty line.
  ///
  /// - Throws: `invalidArgument` when `event` or `id` contains CR or LF (or `id` NUL).
  static func event(_ event: String?, data: String, id: String?) throws(WebcomError) -> [UInt8] {
    var frame: [UInt8] = []
    frame.reserveCapacity(data.utf8.count + 32)
    if let event {
      guard !event.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else {
        throw WebcomError(
          .invalidArgument, "the event name \(event.debugDescription) contains a line break")
      }
      frame += "event: ".utf8
      frame += event.utf8
      frame.append(0x0A)
    }
    if let id {
      guard !id.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else {
        throw WebcomError(
          .invalidArgument, "the event id \(id.debugDescription) contains a line break or NUL")
      }
      frame += "id: ".utf8
      frame += id.utf8
      frame.append(0x0A)
    }
    appendLines(of: data, prefix: "data: ", to: &frame)
    frame.append(0x0A)
    return frame
  }

  /// A comment (ignored by clients, keeps the connection busy): one `:` line per line of
  /// `text`, then an empty line.
  static func comment(_ text: String) -> [UInt8] {
    var frame: [UInt8] = []
    appendLines(of: text, prefix: ": ", to: &frame)
    frame.append(0x0A)
    return frame
  }

  /// `bytes` as one chunk of a chunked body (empty input gives no bytes: an empty chunk would
  /// end the body).
  static func chunk(_ bytes: [UInt8]) -> [UInt8] {
    guard !bytes.isEmpty else { return [] }
    var chunk = Array(String(bytes.count, radix: 16).utf8)
    chunk += [0x0D, 0x0A]
    chunk += bytes
    chunk += [0x0D, 0x0A]
    return chunk
  }

  private static func appendLines(of text: String, prefix: String, to frame: inout [UInt8]) {
    var utf8 = text.utf8[...]
    while true {
      let lineEnd = utf8.firstIndex { $0 == 0x0A || $0 == 0x0D }
      frame += prefix.utf8
      frame += utf8[..<(lineEnd ?? utf8.endIndex)]
      frame.append(0x0A)
      guard let lineEnd else { return }
      var next = utf8.index(after: lineEnd)
      if utf8[lineEnd] == 0x0D, next != utf8.endIndex, utf8[next] == 0x0A {
        next = utf8.index(after: next)
      }
      utf8 = utf8[next...]
    }
  }
}
