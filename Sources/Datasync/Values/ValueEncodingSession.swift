import Foundation

/// The state shared by the encoders of one ``ValueEncoder`` run.
final class ValueEncodingSession {
  let options: ValueEncoderOptions
  /// The type being encoded, for messages.
  let rootType: Any.Type
  /// The first error found where the `Encoder` API cannot throw (a container requested in a
  /// state that does not allow it, an invalid key of a nested container); thrown at the end.
  private(set) var misuse: WebcomError?

  init(options: ValueEncoderOptions, rootType: Any.Type) {
    self.options = options
    self.rootType = rootType
  }

  /// Records an error to throw when the encoding ends (the first one wins).
  func record(_ error: WebcomError) {
    if misuse == nil { misuse = error }
  }

  /// An `encodingFailed` error for a misuse of the encoder at a place.
  func misuseError(_ reason: String, at path: ValueEncoderPath?) -> WebcomError {
    WebcomError(
      .encodingFailed,
      "encoding the value at \(ValueEncoderPath.place(path)) of the value of type "
        + "\(rootType) failed: \(reason)")
  }
}
