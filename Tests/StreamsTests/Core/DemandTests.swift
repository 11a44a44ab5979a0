import Streams
import Testing

@Suite struct DemandTests {
  typealias Demand = Subscribers.Demand

  @Test func addingSaturatesAtUnlimited() {
    #expect(Demand.max(2) + .max(3) == .max(5))
    #expect(Demand.max(2) + .unlimited == .unlimited)
    #expect(Demand.unlimited + .max(1) == .unlimited)
    #expect(Demand.max(Int.max - 1) + .max(5) == .unlimited)
    #expect(Demand.max(1) + 2 == .max(3))
    #expect(Demand.max(1) + -5 == .none)
  }

  @Test func subtractingClampsAtNone() {
    #expect(Demand.max(5) - .max(2) == .max(3))
    #expect(Demand.max(2) - .max(5) == .none)
    #expect(Demand.max(2) - 7 == .none)
    #expect(Demand.none - 1 == .none)
    #expect(Demand.unlimited - .max(10) == .unlimited)
    #expect(Demand.unlimited - .unlimited == .none)
    var demand = Demand.max(1)
    demand -= 3
    #expect(demand == .none)
  }

  @Test func multiplyingSaturates() {
    #expect(Demand.max(3) * 4 == .max(12))
    #expect(Demand.max(Int.max / 2) * 4 == .unlimited)
    #expect(Demand.unlimited * 2 == .unlimited)
    #expect(Demand.max(3) * 0 == .none)
    #expect(Demand.max(3) * -1 == .none)
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
