import Foundation

/// The coders of an application, shared by its service, managers and nodes (which must not keep
/// the application itself alive).
final class ApplicationContext: @unchecked Sendable {
  let identifier: String
  /// Protects `encoderStorage` and `decoderStorage`.
  private let lock = NSLock()
  private var encoderStorage = JSONEncoder()
  private var decoderStorage = JSONDecoder()

  init(identifier: String) {
    self.identifier = identifier
  }

  var encoder: JSONEncoder {
    get { lock.withLock { encoderStorage } }
    set { lock.withLock { encoderStorage = newValue } }
  }

  var decoder: JSONDecoder {
    get { lock.withLock { decoderStorage } }
    set { lock.withLock { decoderStorage = newValue } }
  }

  /// Wraps a tree in a value decoded with the application's decoder.
  func value(_ tree: JSONValue) -> DatasyncValue {
    DatasyncValue(tree, decoder: decoder)
  }
}
