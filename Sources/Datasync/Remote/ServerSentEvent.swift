/// One event of a Server-Sent Events stream: its name (`message` when the stream gave none) and
/// its data (the `data:` lines joined by line feeds).
struct ServerSentEvent: Sendable, Equatable {
  let name: String
  let data: String
}
