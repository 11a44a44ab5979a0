extension ConsolePage {
  /// The console's behaviour, in plain JavaScript.
  ///
  /// The displayed location has one `EventSource` (`shallow=true`, the token as `?auth=`);
  /// its first page is read at once, and the first `put` of each connection is the moment to
  /// read again over REST what is shown (events missed while disconnected are in that read);
  /// later `put` and `patch` events change the tree in place. Children are read a page at a
  /// time (`shallow=true&orderBy="$key"&limitToFirst=…&startAt=…`), never a whole subtree.
  /// Events that arrive while a page is being read are kept and applied again on top of the
  /// page once it arrives, so a page that was read before an event never hides it. Writes
  /// change nothing locally: what the server stores comes back through the stream.
  static let script = [scriptFoundations, scriptSynchronisation, scriptRendering, scriptEditing]
    .joined(separator: "\n\n")
}
