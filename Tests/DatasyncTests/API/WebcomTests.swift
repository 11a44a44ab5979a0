import Foundation
import Testing

@testable import Datasync

@Suite struct WebcomTests {
  @Test func theDefaultApplicationIsOneEmbeddedInMemoryApplication() throws {
    let application = Webcom.defaultApplication
    #expect(application === Webcom.defaultApplication)
    #expect(application.configuration.identifier == "default")
    #expect(application.datasyncService === Webcom.defaultApplication.datasyncService)
    let node = try application.datasyncService.createManager().nodeThrows(for: "webcom-tests/x")
    try waitForResult { node.set("default", queue: $0, then: $1) }
    let other = try Webcom.defaultApplication.datasyncService.createManager()
      .nodeThrows(for: "webcom-tests/x")
    #expect(try waitForResult { other.value(queue: $0, then: $1) }.asString == "default")
    try waitForResult { node.clear(queue: $0, then: $1) }
  }

  @Test func separateApplicationsHaveSeparateDatabasesByDefault() throws {
    let first = try makeApplication().datasyncService.createManager().nodeThrows(for: "x")
    let second = try WebcomApplication(configuration: WebcomConfiguration(identifier: "second"))
      .datasyncService.createManager().nodeThrows(for: "x")
    try waitForResult { first.set(1, queue: $0, then: $1) }
    #expect(try waitForResult { second.value(queue: $0, then: $1) }.isNull)
  }
}
