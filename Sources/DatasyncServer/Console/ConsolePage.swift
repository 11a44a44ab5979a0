/// The data console: one self-contained HTML page (its style and script inline, nothing
/// fetched from elsewhere) that browses and edits a namespace live through the server's public
/// REST and streaming protocol only — everything it does, `curl` could do.
///
/// The page shows the tree of a location, expands and collapses nodes, reads large nodes a
/// page of keys at a time, follows changes through an event stream (highlighting what
/// changed), and sets, adds, deletes, imports and exports values; a failed write shows the
/// server's error next to the node and changes nothing. The token is kept in the browser
/// session only; the namespace and path are kept in the page's address (`#ns=…&path=…`).
enum ConsolePage {
  /// The answer to `GET /`: the page, which the browser must revalidate (it changes with the
  /// server's version) and which may load nothing from another origin.
  static let response = HTTPResponse(
    status: .ok,
    headers: [
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy":
        "default-src 'none'; connect-src 'self'; script-src 'unsafe-inline'; "
        + "style-src 'unsafe-inline'; img-src data: blob:; frame-ancestors 'none'",
    ],
    body: document)

  /// The whole page.
  static let document =
    markupHead + "<style>\n" + style + "</style>\n" + markupBody
    + "<script>\n" + script + "</script>\n</body>\n</html>\n"
}
