import Foundation
import Streams
import Testing

@Suite struct DemandTests {
  typealias Demand = Subscribers.Demand

  @Test func addingSaturatesAtUnlimited() {
    #expect(Demand.max(2) + .max(3) == .max(5))
    #expect(Demand.max(2) + .unlimited == .unlimited)
    #expect(Demand.unlimited + .max(1) == .unlimited)
    #expect(Demand.max(Int.max - 1) + .max(5) == .unlimited)
    #expect(Demand.unlimited + -5 == .unlimited)
    #expect(Demand.max(1) + 2 == .max(3))
    #expect(Demand.max(1) + -5 == .none)
  }

  @Test func subtractingClampsAtNone() {
    #expect(Demand.max(5) - .max(2) == .max(3))
    #expect(Demand.max(2) - .max(5) == .none)
    #expect(Demand.max(2) - 7 == .none)
    #expect(Demand.none - 1 == .none)
    #expect(Demand.unlimited - .max(10) == .unlimited)
    #expect(Demand.unlimited - 3 == .unlimited)
    #expect(Demand.max(3) - .unlimited == .none)
    var demand = Demand.max(1)
    demand -= 3
    #expect(demand == .none)
  }

  @Test func subtractingANegativeIntegerAddsAndOverflowsToNoneAsCombineDoes() {
    #expect(Demand.max(5) - (-3) == .max(8))
    #expect(Demand.max(Int.max - 1) - (-1) == .max(Int.max))
    #expect(Demand.max(Int.max) - (-1) == .none)
    var demand = Demand.max(Int.max)
    demand -= -1
    #expect(demand == .none)
    #expect(Demand.unlimited - (-1) == .unlimited)
  }

  @Test func multiplyingSaturates() {
    #expect(Demand.max(3) * 4 == .max(12))
    #expect(Demand.max(Int.max / 2) * 4 == .unlimited)
    #expect(Demand.unlimited * 2 == .unlimited)
    #expect(Demand.max(3) * 0 == .none)
    #expect(Demand.max(3) * -1 == .none)
    #expect(Demand.unlimited * 0 == .unlimited)
  }

  @Test func unlimitedMinusUnlimitedStaysUnlimited() {
    #expect(Demand.unlimited - .unlimited == .unlimited)
    var demand = Demand.unlimited
    demand -= .unlimited
    #expect(demand == .unlimited)
  }

  @Test func finiteDemandReachesIntMaxBeforeSaturating() {
    #expect(Demand.max(Int.max - 1) + .max(1) == .max(Int.max))
    #expect(Demand.max(Int.max - 1) + 1 == .max(Int.max))
    #expect(Demand.max(Int.max) != .unlimited)
    #expect(Demand.max(Int.max).max == Int.max)
    #expect(Demand.max(Int.max) + .max(1) == .unlimited)
    #expect(Demand.max(Int.max) + 1 == .unlimited)
    #expect(Demand.max(Int.max) < .unlimited)
    #expect(Demand.max(Int.max) - .max(Int.max) == .none)
    #expect(Demand.max(Int.max) - Int.min == .none)
    #expect(Demand.max(Int.max) + Int.min == .none)
    #expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
    #expect(Demand.max(Int.max / 2) * 2 == .max(Int.max - 1))
    #expect(Demand.unlimited > Int.max)
    #expect(Demand.unlimited != Int.max)
    #expect(!(Demand.unlimited <= Int.max))
  }

  @Test func encodesAsCombineDoes() throws {
    let encoded = try JSONEncoder().encode([Demand.max(3), .none, .unlimited, .max(Int.max)])
    #expect(
      String(decoding: encoded, as: UTF8.self)
        == "[3,0,9223372036854775808,9223372036854775807]")
    let decoded = try JSONDecoder().decode([Demand].self, from: encoded)
    #expect(decoded == [.max(3), .none, .unlimited, .max(Int.max)])
    let beyond = try JSONDecoder().decode(Demand.self, from: Data("18446744073709551615".utf8))
    #expect(beyond == .unlimited)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Demand.self, from: Data("-1".utf8))
    }
  }

  @Test func comparesWithIntegers() {
    #expect(Demand.max(3) > 2)
    #expect(Demand.max(3) >= 3)
    #expect(Demand.max(3) < 4)
    #expect(Demand.none == 0)
    #expect(Demand.unlimited > Int.max - 1)
    #expect(Demand.max(0) < Demand.max(1))
    #expect(Demand.max(1) < Demand.unlimited)
    #expect(Demand.max(3) > -1)
    #expect(!(Demand.max(3) < -1))
  }

  @Test func exposesMaxAndDescription() {
    #expect(Demand.max(7).max == 7)
    #expect(Demand.unlimited.max == nil)
    #expect(Demand.unlimited.description == "unlimited")
    #expect(Demand.max(4).description == "max(4)")
  }
}
