import Foundation
import Testing

@testable import Datasync

@Suite struct JSONObjectNodeTests {
  #if canImport(Glibc)
    /// The bytes malloc reserved for the object at `address` (glibc's `malloc_usable_size`).
    private static func usableSize(of address: UnsafeMutableRawPointer) -> Int? {
      guard let symbol = dlsym(nil, "malloc_usable_size") else { return nil }
      let function = unsafeBitCast(
        symbol, to: (@convention(c) (UnsafeMutableRawPointer) -> Int).self)
      return function(address)
    }

    @Test func nodeFitsAMallocChunkOfNinetySixBytes() throws {
      // A 96-byte chunk leaves 88 usable bytes; the next chunk size, 112, leaves 104. malloc may
      // hand out a larger free chunk whole when splitting it would leave too small a rest, so
      // one node's chunk can be larger than needed: the smallest of several is the size the
      // node asks for.
      let nodes = (0..<32).map {
        JSONObjectNode(WebcomKey("author-\($0)"), .string("writer-3"), nil, nil)
      }
      let sizes = try nodes.map {
        try #require(Self.usableSize(of: Unmanaged.passUnretained($0).toOpaque()))
      }
      #expect(sizes.min() ?? .max <= 88)
    }
  #endif

  @Test func keysKeepTheirShapeWhenStoredInParts() {
    let long = String(repeating: "k", count: 40_000)
    let longInteger = String(repeating: "0", count: 40_000) + "7"
    for key in ["", "a", "abcdefgh", "abcdefghi", "-12", "0012", long, longInteger] {
      let original = WebcomKey(key)
      let stored = JSONObjectNode(original, .bool(true), nil, nil).key
      #expect(stored.value == original.value)
      #expect(stored.orderPrefix == original.orderPrefix)
      #expect(stored.shape == original.shape)
      #expect(stored.utf8Count == key.utf8.count)
    }
  }
}
