import Foundation

/// The children a `merge` writes: the non-null members of the encoded object, plus the members
/// explicitly set to null, which the merge deletes (the value model drops nulls, so they are read
/// from the encoded JSON).
enum MergeChildren {
  static func of<T: Encodable>(_ value: T, encoder: JSONEncoder) throws(WebcomError) -> [(
    key: WebcomKey, value: JSONValue
  )] {
    let tree = try JSONValue.fromEncodable(value, encoder: encoder)
    var children = tree.children.map { Array($0) } ?? []
    guard tree.children != nil || tree.isNull else {
      throw WebcomError(
        .invalidArgument,
        "merge needs a value that encodes to an object, not \(tree.kindDescription)")
    }
    let data: Data
    do {
      data = try encoder.encode(value)
    } catch {
      throw WebcomError(.encodingFailed, "cannot encode the value to merge: \(error)")
    }
    let members = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    guard let object = members as? [String: Any] else {
      if tree.isNull && !(members is [Any]) {
        throw WebcomError(
          .invalidArgument, "merge needs a value that encodes to an object, not null")
      }
      return children
    }
    for (name, member) in object where member is NSNull {
      children.append((key: try WebcomKey.validated(name), value: .null))
    }
    return children
  }
}
