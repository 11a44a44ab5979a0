import DatasyncServer
import Testing

@Suite(.timeLimit(.minutes(1))) struct ConsoleRouteTests {
  @Test func theRootAndConsolePathsAnswerTheSelfContainedPage() throws {
    let server = try TestDatabaseServer()
    for path in ["/", "/console", "/console/", "/?ns=chat"] {
      let response = try server.request("GET", path)
      #expect(response.status == 200, "\(path)")
      #expect(response.header("Content-Type") == "text/html; charset=utf-8")
      #expect(response.bodyText.hasPrefix("<!doctype html>"))
      #expect(response.bodyText.contains(#"<ul id="tree" role="tree""#))
      #expect(response.bodyText.contains("new EventSource("))
      #expect(response.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
    }
    let head = try server.request("HEAD", "/")
    #expect(head.status == 200 && head.body.isEmpty)
    #expect(head.header("Content-Length") == "\(try server.request("GET", "/").body.count)")
  }

  @Test func thePageLoadsNothingFromElsewhere() throws {
    let page = try TestDatabaseServer().request("GET", "/").bodyText
    for reference in ["http://", "https://", "src=\"", "<link rel=\"stylesheet\"", "@import"] {
      #expect(!page.contains(reference), "\(reference)")
    }
  }

  @Test func otherMethodsOnThePageAre405AndDataPathsKeepMeaningData() throws {
    let server = try TestDatabaseServer()
    let refused = try server.request("PUT", "/", body: "1")
    #expect(refused.status == 405)
    #expect(refused.header("Allow") == "GET, HEAD")
    #expect(refused.bodyText.contains("data console"))
    #expect(try server.request("PUT", "/.json", body: #"{"console": 1}"#).status == 200)
    #expect(try server.request("GET", "/.json").bodyText == #"{"console":1}"#)
    #expect(try server.request("GET", "/console.json").bodyText == "1")
    #expect(try server.request("GET", "/console/other").status == 404)
  }
}
