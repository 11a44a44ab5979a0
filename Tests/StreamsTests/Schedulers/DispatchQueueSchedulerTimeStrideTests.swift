import Foundation
import Streams
import Testing

@Suite struct DispatchQueueSchedulerTimeStrideTests {
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride

  @Test func integerAndFloatLiteralsAreSeconds() {
    #expect((2 as Stride).magnitude == 2_000_000_000)
    #expect((-3 as Stride).magnitude == -3_000_000_000)
    #expect((1.2 as Stride).magnitude == 1_200_000_000)
    #expect((0.3 as Stride) == .milliseconds(300))
    #expect((0.000_000_001 as Stride) == .nanoseconds(1))
  }

  @Test func exactlyIsSecondsAndNilWhenTheyDoNotFit() {
    #expect(Stride(exactly: 2)?.magnitude == 2_000_000_000)
    #expect(Stride(exactly: 2 as UInt64) == .seconds(2))
    #expect(Stride(exactly: -1 as Int8) == .seconds(-1))
    #expect(Stride(exactly: UInt64.max) == nil)
    #expect(Stride(exactly: Int.max) == nil)
    #expect(Stride(exactly: 9_223_372_036) == .seconds(9_223_372_036))
    #expect(Stride(exactly: 9_223_372_037) == nil)
  }

  @Test func unitsAndDispatchTimeIntervalsClampAtTheLimits() {
    #expect(Stride.seconds(.max).magnitude == .max)
    #expect(Stride.seconds(.min).magnitude == .min)
    #expect(Stride.milliseconds(.max).magnitude == .max)
    #expect(Stride.seconds(Double.infinity).magnitude == .max)
    #expect(Stride.seconds(-Double.infinity).magnitude == .min)
    #expect(Stride.seconds(Double.nan).magnitude == 0)
    #expect(Stride(.seconds(2)).magnitude == 2_000_000_000)
    #expect(Stride(.microseconds(.min)).magnitude == .min)
    #expect(Stride(.never).magnitude == .max)
    if case .nanoseconds(let value) = Stride.milliseconds(2).timeInterval {
      #expect(value == 2_000_000)
    } else {
      Issue.record("a stride converts to a nanoseconds interval")
    }
  }

  @Test func multiplyingStridesMultipliesTheirSeconds() {
    #expect(Stride.milliseconds(300) * 2 == .milliseconds(600))
    #expect(2 * Stride.milliseconds(300) == .milliseconds(600))
    #expect(Stride.seconds(2) * .seconds(3) == .seconds(6))
    #expect(Stride.milliseconds(-300) * 2 == .milliseconds(-600))
    #expect(Stride.milliseconds(-300) * -2 == .milliseconds(600))
    #expect(Stride.milliseconds(500) * 0.5 == .milliseconds(250))
    var stride = Stride.seconds(1)
    stride *= 3
    #expect(stride == .seconds(3))
  }

  @Test func productsBelowANanosecondAreZero() {
    #expect((Stride.nanoseconds(18) * .nanoseconds(1)).magnitude == 0)
    #expect((Stride.microseconds(1) * .nanoseconds(18)).magnitude == 0)
    #expect((Stride.nanoseconds(15) * .nanoseconds(2)).magnitude == 0)
    #expect((Stride.microseconds(-3) * .nanoseconds(10)).magnitude == 0)
    #expect((Stride.nanoseconds(0) * .seconds(.max)).magnitude == 0)
  }

  @Test func productsClampAtTheLimits() {
    #expect(Stride.seconds(1_000_000_000) * .seconds(1_000_000_000) == .nanoseconds(.max))
    #expect(Stride.seconds(-1_000_000_000) * .seconds(1_000_000_000) == .nanoseconds(.min))
    #expect(Stride.nanoseconds(.max) * .nanoseconds(.max) == .nanoseconds(.max))
    #expect(Stride.nanoseconds(.min) * .nanoseconds(.min) == .nanoseconds(.max))
    #expect(Stride.nanoseconds(.min) * 1 == .nanoseconds(.min))
    #expect(Stride.nanoseconds(.max) * -1 == .nanoseconds(-Int.max))
  }

  @Test func additionAndSubtractionClampAtTheLimits() {
    #expect(Stride.nanoseconds(7) + .nanoseconds(-12) == .nanoseconds(-5))
    #expect(Stride.nanoseconds(-12) - .nanoseconds(7) == .nanoseconds(-19))
    #expect(Stride.nanoseconds(.max) + .nanoseconds(1) == .nanoseconds(.max))
    #expect(Stride.nanoseconds(.min) + .nanoseconds(-1) == .nanoseconds(.min))
    #expect(Stride.nanoseconds(.min) - .nanoseconds(1) == .nanoseconds(.min))
    #expect(Stride.nanoseconds(0) - .nanoseconds(.min) == .nanoseconds(.max))
    #expect(Stride.nanoseconds(-1) - .nanoseconds(.min) == .nanoseconds(.max))
  }

  @Test func encodesInCombinesForm() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(Wrapper(value: Stride.nanoseconds(419_872)))
    #expect(String(decoding: data, as: UTF8.self) == #"{"value":{"_nanoseconds":419872}}"#)
    let decoded = try JSONDecoder().decode(Wrapper<Stride>.self, from: data)
    #expect(decoded.value == .nanoseconds(419_872))
  }

  @Test func codableRoundTripKeepsEveryValue() throws {
    for stride in [Stride.nanoseconds(.min), -1, 0, 0.5, .seconds(.max)] {
      let data = try JSONEncoder().encode(stride)
      #expect(try JSONDecoder().decode(Stride.self, from: data) == stride)
    }
  }

  @Test func decodingAMalformedStrideThrows() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Stride.self, from: Data(#"{"nanoseconds":1}"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Stride.self, from: Data(#"{"_nanoseconds":"1"}"#.utf8))
    }
  }
}

/// A keyed container around one value, as values are usually encoded inside a model.
struct Wrapper<Value: Codable>: Codable {
  let value: Value
}
