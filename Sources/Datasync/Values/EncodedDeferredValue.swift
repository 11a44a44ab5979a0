/// A member whose value is known only when its container is finished: a nested container or a
/// `super` encoder, which the encoded type may still write after asking for it.
enum EncodedDeferredValue {
  case object(EncodedObject)
  case array(EncodedArray)
  case encoder(ValueEncoding)

  func finished() throws(WebcomError) -> JSONValue {
    switch self {
    case .object(let object): try object.finished()
    case .array(let array): try array.finished()
    case .encoder(let encoding): try encoding.storage.finished()
    }
  }
}
