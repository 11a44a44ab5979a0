/// An incremental parser of the Server-Sent Events format (the `text/event-stream` of the HTML
/// standard): bytes go in as they arrive, split anywhere, and complete events come out.
///
/// Lines end with CR LF, LF or CR (a CR at the end of a chunk waits for the next byte to know
/// whether a LF follows). A line starting with `:` is a comment; `event:` names the event,
/// `data:` adds a data line, other fields (`id`, `retry`, unknown names) are ignored; one space
/// after the colon is dropped. A blank line dispatches the event, if it has data. The bytes must
/// be UTF-8, and a line may not exceed ``maximumLineLength``: a stream breaking either rule is
/// malformed and the parser stops (every later call throws).
struct ServerSentEventParser {
  /// The longest line accepted, in bytes (a `put` of a large location is one line).
  let maximumLineLength: Int

  private var line: [UInt8] = []
  private var eventName = ""
  private var dataLines: [String] = []
  private var hasData = false
  /// Whether the last byte seen was a CR (a LF right after it ends nothing more).
  private var afterCarriageReturn = false
  private var failure: WebcomError?

  init(maximumLineLength: Int = 256 << 20) {
    self.maximumLineLength = maximumLineLength
  }

  /// Parses the next bytes of the stream; returns the events they complete, in order.
  ///
  /// - Throws: ``WebcomError`` with code `decodingFailed` for a line that is not UTF-8 or is too
  ///   long (also for every call after such a line).
  mutating func parse(_ bytes: some Sequence<UInt8>) throws(WebcomError) -> [ServerSentEvent] {
    if let failure { throw failure }
    var events: [ServerSentEvent] = []
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "\n"):
        if afterCarriageReturn {
          afterCarriageReturn = false
          continue
        }
        try endLine(into: &events)
      case UInt8(ascii: "\r"):
        afterCarriageReturn = true
        try endLine(into: &events)
      default:
        afterCarriageReturn = false
        guard line.count < maximumLineLength else {
          throw fail("a line of the event stream is longer than \(maximumLineLength) bytes")
        }
        line.append(byte)
      }
    }
    return events
  }

  private mutating func endLine(into events: inout [ServerSentEvent]) throws(WebcomError) {
    defer { line.removeAll(keepingCapacity: line.count <= 4096) }
    guard !line.isEmpty else {
      if hasData {
        events.append(
          ServerSentEvent(
            name: eventName.isEmpty ? "message" : eventName, data: dataLines.joined(separator: "\n")
          ))
      }
      eventName = ""
      dataLines = []
      hasData = false
      return
    }
    guard line[0] != UInt8(ascii: ":") else { return }
    let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
    var valueStart = colon == line.endIndex ? colon : colon + 1
    if valueStart < line.endIndex && line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
    guard let field = String(validating: line[..<colon], as: UTF8.self),
      let value = String(validating: line[valueStart...], as: UTF8.self)
    else {
      throw fail("a line of the event stream is not valid UTF-8")
    }
    switch field {
    case "event":
      eventName = value
    case "data":
      dataLines.append(value)
      hasData = true
    default:
      break
    }
  }

  private mutating func fail(_ message: String) -> WebcomError {
    let error = WebcomError(.decodingFailed, message)
    failure = error
    return error
  }
}
