/// Paths as the REST protocol spells them.
extension DatasyncPath {
  /// Parses the path of a REST request (without its `.json` suffix): keys separated by `/`,
  /// empty segments ignored (`/a//b/` is `/a/b`). Unlike the paths of the node API, `.` and
  /// `..` do not navigate: they are invalid keys.
  ///
  /// - Throws: ``WebcomError`` with code `invalidPath` naming the path and the reason (an
  ///   invalid key, more than 32 levels or 768 UTF-8 bytes).
  package init(restPath: String) throws(WebcomError) {
    var keys: [WebcomKey] = []
    for segment in restPath.utf8.split(separator: UInt8(ascii: "/")) {
      let key = String(decoding: segment, as: UTF8.self)
      if let reason = WebcomKey.invalidityReason(of: segment) {
        throw WebcomError(
          .invalidPath,
          "the path \(WebcomKey.quoted(restPath)) is invalid: the segment "
            + "\(WebcomKey.quoted(key)) is not a valid key: \(reason)")
      }
      keys.append(WebcomKey(key))
    }
    let path = DatasyncPath(validatedKeys: keys)
    if path.depth > DatasyncPath.maximumDepth {
      throw WebcomError(
        .invalidPath,
        "the path \(WebcomKey.quoted(path.string)) is \(path.depth) levels deep, more than the "
          + "limit of \(DatasyncPath.maximumDepth)")
    }
    if path.utf8Count > WebcomKey.maximumUTF8Count {
      throw WebcomError(
        .invalidPath,
        "the path \(WebcomKey.quoted(path.string)) is \(path.utf8Count) UTF-8 bytes long, "
          + "more than the limit of \(WebcomKey.maximumUTF8Count)")
    }
    self = path
  }

  /// The path of a child; `key` must be a valid key.
  package func appending(_ key: WebcomKey) -> DatasyncPath {
    child(key)
  }
}

extension WebcomKey {
  /// A new push identifier: the key `POST` gives a pushed child (see ``DatasyncNode``'s
  /// `push`), increasing in key order within this process.
  package static func nextPushIdentifier() -> WebcomKey {
    PushIdentifierGenerator.shared.next()
  }
}
