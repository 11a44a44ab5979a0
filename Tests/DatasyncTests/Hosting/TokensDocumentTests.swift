import Testing

@testable import Datasync

@Suite struct TokensDocumentTests {
  private func tokens(_ text: String) throws(WebcomError) -> [String: DatasyncAuthentication] {
    try DatasyncAuthentication.tokens(fromDocument: Array(text.utf8))
  }

  @Test func aDocumentMapsTokensToIdentities() throws {
    let read = try tokens(
      #"""
      {
        "alice.secret/1": {"uid": "alice"},
        "bob": {"uid": "bob", "provider": "password", "claims": {"moderator": true, "level": 3}},
        "ops": {"admin": true}
      }
      """#)
    #expect(read["alice.secret/1"] == DatasyncAuthentication(uid: "alice"))
    let bob = try #require(read["bob"])
    #expect(bob.provider == "password")
    #expect(bob.claims["moderator"]?.asBool == true)
    #expect(bob.claims["level"]?.asInt == 3)
    #expect(read["ops"] == .admin)
    #expect(try tokens("{}").isEmpty)
  }

  @Test func invalidDocumentsNameTheCulprit() {
    let cases: [(String, String)] = [
      ("[]", "JSON object"),
      (#"{"t": 1}"#, "\"t\""),
      (#"{"t": {}}"#, "uid"),
      (#"{"t": {"uid": ""}}"#, "uid"),
      (#"{"t": {"uid": "a", "role": "x"}}"#, "\"role\""),
      (#"{"t": {"uid": "a", "provider": 1}}"#, "provider"),
      (#"{"t": {"uid": "a", "claims": "all"}}"#, "claims"),
      (#"{"t": {"admin": false}}"#, "admin"),
      (#"{"t": {"admin": true, "uid": "a"}}"#, "admin"),
      (#"{"": {"uid": "a"}}"#, "empty token"),
      (#"{"t": {"uid": "a"}"#, "JSON object"),
    ]
    for (text, culprit) in cases {
      do {
        _ = try tokens(text)
        Issue.record("\(text) was accepted")
      } catch {
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains(culprit), "\(error.message)")
      }
    }
  }
}
