import Foundation
import Testing

@testable import Datasync

@Suite struct WebcomErrorTests {
  @Test func codeMessageAndDescriptions() {
    let error = WebcomError(.invalidPath, "the path \"a#b\" is invalid")
    #expect(error.code == .invalidPath)
    #expect(error.message == "the path \"a#b\" is invalid")
    #expect(error.description == "invalidPath: the path \"a#b\" is invalid")
    #expect(error.errorDescription == error.description)
    #expect(error.localizedDescription == error.description)
    #expect(error == WebcomError(.invalidPath, "the path \"a#b\" is invalid"))
    #expect(error != WebcomError(.invalidKey, "the path \"a#b\" is invalid"))
  }

  @Test func codesOfTheContractExist() {
    let names = Set(WebcomError.Code.allCases.map(\.rawValue))
    for name in [
      "invalidPath", "invalidKey", "invalidValue", "encodingFailed", "decodingFailed",
      "notANumber", "permissionDenied", "transactionAborted", "transactionTooManyRetries",
      "writeCancelled", "writeRejected", "subscriptionRevoked", "disconnected", "invalidArgument",
      "internalError",
    ] {
      #expect(names.contains(name), "\(name)")
    }
  }
}
