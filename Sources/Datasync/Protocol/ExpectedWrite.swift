/// What a client expects a `set` to leave at a location it listens to, sent beside the write to
/// a back end in the same process.
///
/// `base` is the value at `location` as the client's cache held it when the set was applied
/// locally (no pending write changing it), and `result` the value there after the set. A client
/// of the embedded database holds, at a listened location, the very storage the database sent;
/// when the database's value there is still that storage (``JSONValue/isIdentical(to:)``), the
/// set gives exactly `result`, so the database takes `result` instead of applying the set again.
/// The write's tree and the client's cache then keep sharing their storage, and the database
/// copies only the path down to `location`. Otherwise the database applies the set as usual.
struct ExpectedWrite: Sendable {
  /// The listened location, at or above the written path.
  let location: DatasyncPath
  /// The value at `location` the set was applied to.
  let base: JSONValue
  /// The value at `location` after the set.
  let result: JSONValue
}
