import Testing

@testable import Datasync

@Suite struct RuleNodeTests {
  @Test func onlyTheLiteralTrueIsMarkedAsGrantingWithoutEvaluation() throws {
    let rules = try DatasyncRules(
      json: """
        {"rules": {
          ".read": true, ".write": "true",
          "a": {".read": false, ".write": "auth != null", ".validate": "true || false"}
        }}
        """)
    let root = rules.root
    #expect(root.read?.isLiteralTrue == true)
    #expect(root.write?.isLiteralTrue == true)
    let child = try #require(root.child("a"))
    #expect(child.read?.isLiteralTrue == false)
    #expect(child.write?.isLiteralTrue == false)
    #expect(child.validate?.isLiteralTrue == false)
  }
}
