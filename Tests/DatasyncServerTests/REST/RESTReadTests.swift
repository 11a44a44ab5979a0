import DatasyncServer
import Testing

@testable import Datasync

@Suite(.timeLimit(.minutes(1))) struct RESTReadTests {
  private let dinosaurs = #"""
    {
      "bruhathkayosaurus": {"appeared": -70000000, "height": 25, "order": "saurischia"},
      "lambeosaurus": {"appeared": -76000000, "height": 2.1, "order": "ornithischia"},
      "linhenykus": {"appeared": -85000000, "height": 0.6, "order": "theropoda"},
      "pterodactyl": {"appeared": -150000000, "height": 0.6, "order": "pterosauria"},
      "stegosaurus": {"appeared": -155000000, "height": 4, "order": "ornithischia"},
      "triceratops": {"appeared": -68000000, "height": 3, "order": "ornithischia"}
    }
    """#

  private func seeded() throws -> TestDatabaseServer {
    let server = try TestDatabaseServer()
    let response = try server.request("PUT", "/dinosaurs.json", body: dinosaurs)
    try #require(response.status == 200)
    return server
  }

  private func keys(_ response: TestResponse) throws -> [String] {
    try #require(response.status == 200, "\(response.bodyText)")
    guard case .object(let object) = try JSONValue.parsingRequestBody(response.body) else {
      return []
    }
    return object.keys.map(\.value)
  }

  @Test func aReadAnswersTheDataAsJSON() throws {
    let server = try seeded()
    let response = try server.request("GET", "/dinosaurs/stegosaurus.json")
    #expect(response.status == 200)
    #expect(response.header("Content-Type") == "application/json; charset=utf-8")
    #expect(response.bodyText == #"{"appeared":-155000000,"height":4,"order":"ornithischia"}"#)
    #expect(try server.request("GET", "/dinosaurs/stegosaurus/height.json").bodyText == "4")
    #expect(try server.request("GET", "/nothing/here.json").bodyText == "null")
    #expect(try server.request("GET", "/dinosaurs/stegosaurus/.json").bodyText.hasPrefix("{"))
    let head = try server.request("HEAD", "/dinosaurs/stegosaurus/height.json")
    #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "1")
  }

  @Test func printShapesTheAnswer() throws {
    let server = try seeded()
    let pretty = try server.request("GET", "/dinosaurs/triceratops.json?print=pretty")
    #expect(
      pretty.bodyText == """
        {
          "appeared" : -68000000,
          "height" : 3,
          "order" : "ornithischia"
        }
        """)
    let silent = try server.request("GET", "/dinosaurs.json?print=silent")
    #expect(silent.status == 204 && silent.body.isEmpty)
    #expect(try server.request("GET", "/dinosaurs.json?print=loud").status == 400)
  }

  @Test func shallowKeepsTheFirstLevel() throws {
    let server = try seeded()
    _ = try server.request("PUT", "/dinosaurs/count.json", body: "6")
    let shallow = try server.request("GET", "/dinosaurs.json?shallow=true")
    #expect(
      shallow.bodyText
        == #"{"bruhathkayosaurus":true,"count":6,"lambeosaurus":true,"linhenykus":true,"#
        + #""pterodactyl":true,"stegosaurus":true,"triceratops":true}"#)
    #expect(try server.request("GET", "/dinosaurs/count.json?shallow=true").bodyText == "6")
    let mixed = try server.request("GET", #"/dinosaurs.json?shallow=true&orderBy="$value""#)
    #expect(mixed.status == 400)
    #expect(mixed.errorMessage?.contains("shallow") == true)
    let export = try server.request("GET", "/dinosaurs.json?shallow=true&format=export")
    #expect(export.status == 400)
  }

  @Test func shallowWithAKeyQueryPagesThroughTheKeys() throws {
    let server = try seeded()
    _ = try server.request("PUT", "/dinosaurs/count.json", body: "6")
    let first = try server.request(
      "GET", #"/dinosaurs.json?shallow=true&orderBy="$key"&limitToFirst=3"#)
    #expect(
      first.bodyText == #"{"bruhathkayosaurus":true,"count":6,"lambeosaurus":true}"#)
    let next = try server.request(
      "GET", #"/dinosaurs.json?shallow=true&orderBy="$key"&startAt="lambeosaurus"&limitToFirst=3"#)
    #expect(next.bodyText == #"{"lambeosaurus":true,"linhenykus":true,"pterodactyl":true}"#)
    let last = try server.request(
      "GET", #"/dinosaurs.json?shallow=true&orderBy="$key"&startAfter="stegosaurus""#)
    #expect(last.bodyText == #"{"triceratops":true}"#)
    let leaf = try server.request(
      "GET", #"/dinosaurs/count.json?shallow=true&orderBy="$key"&limitToFirst=1"#)
    #expect(leaf.bodyText == "null")
  }

  @Test func formatExportIsTheDataItself() throws {
    let server = try seeded()
    let plain = try server.request("GET", "/dinosaurs.json")
    let export = try server.request("GET", "/dinosaurs.json?format=export")
    #expect(export.status == 200 && export.body == plain.body)
    #expect(try server.request("GET", "/dinosaurs.json?format=xml").status == 400)
  }

  @Test func queriesOrderFilterAndLimit() throws {
    let server = try seeded()
    #expect(
      try keys(server.request("GET", #"/dinosaurs.json?orderBy="height"&limitToFirst=2"#))
        == ["linhenykus", "pterodactyl"])
    #expect(
      try keys(server.request("GET", #"/dinosaurs.json?orderBy="height"&limitToLast=2"#))
        == ["bruhathkayosaurus", "stegosaurus"])
    #expect(
      try keys(server.request("GET", #"/dinosaurs.json?orderBy="height"&startAt=3&endAt=4"#))
        == ["stegosaurus", "triceratops"])
    #expect(
      try keys(server.request("GET", #"/dinosaurs.json?orderBy="height"&equalTo=0.6"#))
        == ["linhenykus", "pterodactyl"])
    #expect(
      try keys(server.request("GET", #"/dinosaurs.json?orderBy="order"&equalTo="ornithischia""#))
        == ["lambeosaurus", "stegosaurus", "triceratops"])
    #expect(
      try keys(
        server.request("GET", #"/dinosaurs.json?orderBy="$key"&startAt="l"&endAt="p\uf8ff""#))
        == ["lambeosaurus", "linhenykus", "pterodactyl"])
    #expect(
      try keys(
        server.request(
          "GET", #"/dinosaurs.json?orderBy="$key"&startAfter="lambeosaurus"&limitToFirst=1"#))
        == ["linhenykus"])
    #expect(
      try keys(server.request("GET", #"/dinosaurs.json?orderBy="$key"&endBefore="linhenykus""#))
        == ["bruhathkayosaurus", "lambeosaurus"])
    #expect(
      try keys(server.request("GET", #"/dinosaurs.json?orderBy="appeared"&limitToLast=1"#))
        == ["triceratops"])
    _ = try server.request("PUT", "/scores.json", body: #"{"a": 3, "b": "x", "c": 1, "d": true}"#)
    #expect(
      try keys(server.request("GET", #"/scores.json?orderBy="$value"&startAt=2"#)) == ["a", "b"])
  }

  @Test func queryParametersArePercentDecodedAsClientsSendThem() throws {
    let server = try seeded()
    // What Python's requests sends for orderBy="height"&startAt=3.
    #expect(
      try keys(
        server.request("GET", "/dinosaurs.json?orderBy=%22height%22&startAt=3&limitToFirst=1"))
        == ["triceratops"])
  }

  @Test func invalidQueriesAreAnswered400NamingTheParameter() throws {
    let server = try seeded()
    let cases: [(String, String)] = [
      ("/dinosaurs.json?limitToFirst=2", "orderBy"),
      ("/dinosaurs.json?orderBy=height", "orderBy"),
      (#"/dinosaurs.json?orderBy="$priority""#, "priorities"),
      (#"/dinosaurs.json?orderBy="a..b""#, "orderBy"),
      (#"/dinosaurs.json?orderBy="$key"&startAt=3"#, "strings"),
      (#"/dinosaurs.json?orderBy="height"&startAt=high"#, "startAt"),
      (#"/dinosaurs.json?orderBy="height"&startAt={"a":1}"#, "startAt"),
      (#"/dinosaurs.json?orderBy="height"&limitToFirst=-1"#, "limitToFirst"),
      (#"/dinosaurs.json?orderBy="height"&limitToFirst=1&limitToLast=1"#, "limitToLast"),
      (#"/dinosaurs.json?orderBy="height"&equalTo=1&startAt=1"#, "equalTo"),
      (#"/dinosaurs.json?orderBy="height"&startAt=1&startAfter=1"#, "startAfter"),
      ("/dinosaurs.json?print=pretty&print=silent", "twice"),
    ]
    for (target, culprit) in cases {
      let response = try server.request("GET", target)
      #expect(response.status == 400, "\(target)")
      #expect(response.errorMessage?.contains(culprit) == true, "\(target): \(response.bodyText)")
    }
  }

  @Test func pathsAndMethodsOutsideTheProtocolAreRefused() throws {
    let server = try seeded()
    let notJSON = try server.request("GET", "/dinosaurs")
    #expect(notJSON.status == 404 && notJSON.errorMessage?.contains(".json") == true)
    let badKey = try server.request("GET", "/dino$aurs.json")
    #expect(badKey.status == 400 && badKey.errorMessage?.contains("$") == true)
    #expect(try server.request("GET", "/a/../b.json").status == 400)
    let tooDeep = try server.request("GET", String(repeating: "/k", count: 33) + ".json")
    #expect(tooDeep.status == 400 && tooDeep.errorMessage?.contains("32") == true)
    let method = try server.request("OPTIONS", "/dinosaurs.json")
    #expect(method.status == 405 && method.header("Allow")?.contains("PATCH") == true)
  }
}
