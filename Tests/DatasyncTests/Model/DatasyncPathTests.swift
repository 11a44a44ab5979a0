import Foundation
import Testing

@testable import Datasync

@Suite struct DatasyncPathTests {
  private let fooBar = try! DatasyncPath(parsing: "/foo/bar")

  @Test(arguments: ["geek", "/geek", "geek/", "/geek/"])
  func referenceExamplesGoingDown(relative: String) throws {
    #expect(try fooBar.resolving(relative).string == "/foo/bar/geek")
  }

  @Test(arguments: ["../geek/noob", "/../geek//noob/.", "../geek/./noob/."])
  func referenceExamplesGoingUpAndDown(relative: String) throws {
    #expect(try fooBar.resolving(relative).string == "/foo/geek/noob")
  }

  @Test func referenceExampleGoingPastTheRoot() throws {
    let root = try fooBar.resolving("../geek/../..//../..")
    #expect(root == .root)
    #expect(root.string == "/")
    #expect(root.key == "")
    #expect(root.keys.isEmpty)
  }

  /// Run under the thread sanitizer, this catches a resolved path writing into storage that other
  /// threads share (the root's empty key list once did).
  @Test func pathsResolvedOnManyThreadsAtOnceAreIndependent() {
    let expected = ["/": "/", "": "/", "a/..": "/", "/a/b/c": "/a/b/c", "../x": "/x"]
    let texts = expected.keys.sorted()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for round in 0..<200 {
        let text = texts[(thread + round) % texts.count]
        #expect((try? DatasyncPath.root.resolving(text))?.string == expected[text])
      }
    }
  }

  @Test func rootAndParents() throws {
    #expect(DatasyncPath.root.parent == nil)
    #expect(DatasyncPath.root.depth == 0)
    #expect(try DatasyncPath.root.resolving("..") == .root)
    #expect(try DatasyncPath.root.resolving("") == .root)
    #expect(try DatasyncPath(parsing: "/") == .root)
    let path = try DatasyncPath(parsing: "a/b/c")
    #expect(path.string == "/a/b/c")
    #expect(path.key == "c")
    #expect(path.depth == 3)
    #expect(path.parent?.string == "/a/b")
    #expect(path.parent?.parent?.parent == .root)
    #expect(path.description == "/a/b/c")
  }

  @Test func childAncestryAndRelativeKeys() throws {
    let a = try DatasyncPath(parsing: "/a")
    let abc = a.child("b").child("c")
    #expect(abc == (try DatasyncPath(parsing: "/a/b/c")))
    #expect(abc.string == "/a/b/c")
    #expect(DatasyncPath.root.child("x").string == "/x")
    #expect(a.isAncestor(of: abc))
    #expect(DatasyncPath.root.isAncestor(of: a))
    #expect(!a.isAncestor(of: a))
    #expect(!abc.isAncestor(of: a))
    #expect(!(try DatasyncPath(parsing: "/ab")).isAncestor(of: abc))
    #expect(Array(abc.relative(to: a)) == ["b", "c"])
    #expect(abc.relative(to: abc).isEmpty)
    #expect(Array(abc.relative(to: .root)) == ["a", "b", "c"])
  }

  @Test func hashingAndEquality() throws {
    let paths = try ["/a/b", "a/b/", "/a//b", "/a/c", "/"].map { try DatasyncPath(parsing: $0) }
    #expect(Set(paths).count == 3)
  }

  @Test(
    arguments: [".", "$", "#", "[", "]"] + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + [
      "\u{7F}"
    ])
  func forbiddenCharactersAreRejected(character: String) {
    let relative = "ok/in\(character)valid/x"
    #expect(fooBar.resolvingIfValid(relative) == nil)
    do {
      _ = try fooBar.resolving(relative)
      Issue.record("accepted \(relative)")
    } catch {
      #expect(error.code == .invalidPath)
      #expect(error.message.contains("the path \(WebcomKey.quoted(relative))"))
      #expect(error.message.contains("forbidden"))
    }
  }

  @Test func dotsInsideSegmentsAreForbidden() {
    for relative in ["...", "a.", ".a", "a..b", "./.../"] {
      #expect(DatasyncPath.root.resolvingIfValid(relative) == nil, "\(relative)")
    }
  }

  @Test func depthLimitIs32Levels() throws {
    let thirtyTwo = Array(repeating: "k", count: 32).joined(separator: "/")
    #expect(try DatasyncPath(parsing: thirtyTwo).depth == 32)
    #expect(throws: WebcomError.self) { try DatasyncPath(parsing: thirtyTwo + "/k") }
    do {
      _ = try DatasyncPath(parsing: thirtyTwo + "/k")
    } catch {
      #expect(error.code == .invalidPath)
      #expect(error.message.contains("33 levels"))
    }
    // The limit applies to the result, not to the text.
    #expect(try DatasyncPath(parsing: thirtyTwo + "/k/..").depth == 32)
  }

  @Test func lengthLimitIs768Bytes() throws {
    // "/" + 767 bytes = 768 bytes.
    let longest = String(repeating: "k", count: 767)
    #expect(try DatasyncPath(parsing: longest).string.utf8.count == 768)
    #expect(throws: WebcomError.self) { try DatasyncPath(parsing: longest + "k") }
    let twoSegments =
      String(repeating: "\u{E9}", count: 190) + "/" + String(repeating: "k", count: 386)
    #expect(try DatasyncPath(parsing: twoSegments).string.utf8.count == 768)
    do {
      _ = try DatasyncPath(parsing: twoSegments + "k")
      Issue.record("accepted a path of 769 bytes")
    } catch {
      #expect(error.code == .invalidPath)
      #expect(error.message.contains("769 UTF-8 bytes"))
    }
  }

  @Test func nonASCIIKeysAreAllowed() throws {
    let path = try DatasyncPath(parsing: "caf\u{E9}/\u{1F600}/e\u{301}")
    #expect(path.keys.map(\.value) == ["caf\u{E9}", "\u{1F600}", "e\u{301}"])
    // A combining mark after a slash still splits on the slash.
    #expect(try DatasyncPath(parsing: "a/\u{301}b").keys.map(\.value) == ["a", "\u{301}b"])
  }

  /// Navigates random relative paths and checks the result against a model made of an array of
  /// strings.
  @Test func randomizedNavigationMatchesAModel() throws {
    var generator = SeededRandom(seed: 42)
    let segments = ["", ".", "..", "a", "b", "07", "\u{E9}t\u{E9}", "-x_y", "z9"]
    for _ in 0..<2_000 {
      var model: [String] = []
      var path = DatasyncPath.root
      for _ in 0..<Int.random(in: 1...6, using: &generator) {
        let parts = (0..<Int.random(in: 0...7, using: &generator)).map { _ in
          segments.randomElement(using: &generator)!
        }
        var relative = parts.joined(separator: "/")
        if Int.random(in: 0..<10, using: &generator) == 0 {
          relative +=
            "/bad" + ["#", ".", "$", "[", "]", "\u{1}", "\u{7F}"].randomElement(using: &generator)!
          #expect(path.resolvingIfValid(relative) == nil)
          continue
        }
        var expected = model
        for part in parts {
          switch part {
          case "", ".": continue
          case "..": _ = expected.popLast()
          default: expected.append(part)
          }
        }
        if expected.count > 32 {
          #expect(path.resolvingIfValid(relative) == nil)
          continue
        }
        path = try path.resolving(relative)
        model = expected
        #expect(path.keys.map(\.value) == model)
        #expect(path.string == "/" + model.joined(separator: "/"))
        #expect(path.key.value == (model.last ?? ""))
        #expect(
          path.parent?.string
            == (model.isEmpty ? nil : "/" + model.dropLast().joined(separator: "/")))
        #expect(path.parent?.keys.map(\.value) == (model.isEmpty ? nil : Array(model.dropLast())))
        #expect(path == (try DatasyncPath(parsing: path.string)))
      }
    }
  }

  @Test(arguments: ["/", "/a", "/foo/bar", "/é/日本/-NxYz0123456789abcde"])
  func theByteCountIsTheStringsWithoutMakingIt(text: String) throws {
    let path = try DatasyncPath(parsing: text)
    #expect(path.string == text)
    #expect(path.utf8Count == text.utf8.count)
    #expect(path.child("k").utf8Count == path.child("k").string.utf8.count)
  }

  @Test(arguments: ["geek", "a/b/c", "../x", "/", "."])
  func aResolvedPathKeepsNoSpareRoomForItsKeys(relative: String) throws {
    let keys = try fooBar.resolving(relative).keys
    #expect(keys.capacity == keys.count)
  }

  /// Runs of keys compare key by key, whatever arrays hold them.
  @Test func runsOfKeysHaveTheSameKeysWhenTheirKeysAreEqual() throws {
    let path = try DatasyncPath(parsing: "rooms/general/messages")
    let rebuilt = try DatasyncPath(parsing: "rooms/general").child(WebcomKey("messages"))
    #expect(path.keys[...].hasSameKeys(as: rebuilt.keys[...]))
    #expect(path.keys.dropLast().hasSameKeys(as: rebuilt.keys.dropLast()))
    #expect(path.keys[0..<0].hasSameKeys(as: rebuilt.keys[3...]))
    #expect(!path.keys[...].hasSameKeys(as: rebuilt.keys.dropLast()))
    #expect(
      !path.keys[...].hasSameKeys(as: try DatasyncPath(parsing: "rooms/general/message").keys[...]))
  }
}
