import DatasyncServer
import Testing

/// Header fields: case-insensitive names, order, repetition.
@Suite struct HTTPHeadersTests {
  @Test func namesMatchWithoutCaseAndKeepTheirSpellingAndOrder() {
    var headers: HTTPHeaders = ["Content-Type": "application/json", "Set-Cookie": "a=1"]
    headers.add("set-cookie", "b=2")
    #expect(headers["content-TYPE"] == "application/json")
    #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
    #expect(headers.contains("SeT-CoOkIe"))
    #expect(headers.map(\.name) == ["Content-Type", "Set-Cookie", "set-cookie"])
    headers["Set-Cookie"] = "c=3"
    #expect(headers.values(for: "set-cookie") == ["c=3"])
    headers["content-type"] = nil
    #expect(headers.count == 1)
    #expect(headers["Content-Type"] == nil)
    #expect(headers == ["SET-COOKIE": "c=3"])
    #expect(headers != ["Set-Cookie": "C=3"])
  }
}
