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

  /// Every code is produced somewhere (the tests named beside each show where); a code no
  /// operation can produce does not belong here.
  @Test func theCodesAreExactlyThoseTheAPIProduces() {
    let names = Set(WebcomError.Code.allCases.map(\.rawValue))
    #expect(
      names == [
        "invalidPath",  // BadInputTests
        "invalidKey",  // BadInputTests
        "invalidValue",  // BadInputTests
        "invalidArgument",  // ChildrenConstraintLimitTests
        "encodingFailed",  // BadInputTests
        "decodingFailed",  // DatasyncValueTests
        "notANumber",  // BadInputTests
        "permissionDenied",  // DatasyncDatabaseTests (the back end's rules)
        "transactionAborted",  // DatasyncDatabaseTests
        "transactionTooManyRetries",  // ContentionTests
        "writeCancelled",  // ServiceReleaseTests
        "disconnected",  // DisabledConnectionReadTests, ServiceReleaseTests
        "storageFailed",  // DurableTreeStoreErrorTests
        "internalError",  // the server's event loop (socket, pipe and thread failures)
      ])
  }
}
