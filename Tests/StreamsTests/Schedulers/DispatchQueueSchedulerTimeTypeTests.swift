import Foundation
import Streams
import Testing

@Suite struct DispatchQueueSchedulerTimeTypeTests {
  typealias Time = DispatchQueue.SchedulerTimeType

  private func time(_ nanoseconds: UInt64) -> Time {
    Time(DispatchTime(uptimeNanoseconds: nanoseconds))
  }

  @Test func distanceIsSignedNanoseconds() {
    #expect(time(10_000).distance(to: time(10_431)) == .nanoseconds(431))
    #expect(time(10_431).distance(to: time(10_000)) == .nanoseconds(-431))
    let latest = time(UInt64(Int.max))
    #expect(time(10_000).distance(to: latest) == .nanoseconds(.max - 10_000))
    #expect(latest.distance(to: time(10_000)) == .nanoseconds(-(.max - 10_000)))
  }

  @Test func distanceTooLargeForAnIntIsUnboundedInEitherDirection() {
    let never = Time(.distantFuture)
    #expect(time(10_000).distance(to: never) == .nanoseconds(.max))
    #expect(never.distance(to: time(10_000)) == .nanoseconds(.max))
    #expect(never.distance(to: never) == .zero)
  }

  @Test func advancedClampsAtTheClocksEnds() {
    #expect(time(10_000).advanced(by: .nanoseconds(431)) == time(10_431))
    #expect(time(10_000).advanced(by: .nanoseconds(-220)) == time(9_780))
    #expect(time(10_000).advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
    #expect(Time(.distantFuture).advanced(by: .seconds(-1)).dispatchTime == .distantFuture)
    #expect(time(1).advanced(by: .nanoseconds(-1_000)) == time(1))
    #expect(time(10_000).advanced(by: .nanoseconds(.min)) == time(1))
  }

  @Test func ordersByUptimeWithTheDistantFutureLast() {
    #expect(time(1) < time(2))
    #expect(time(UInt64(Int.max)) < Time(.distantFuture))
    #expect(!(Time(.distantFuture) < time(10_000)))
  }

  @Test func encodesAsTheRawTimeInCombinesForm() throws {
    let data = try JSONEncoder().encode(Wrapper(value: time(42)))
    #expect(String(decoding: data, as: UTF8.self) == #"{"value":42}"#)
    #expect(try JSONDecoder().decode(Wrapper<Time>.self, from: data).value == time(42))
  }

  @Test func codableRoundTripKeepsTheDistantFuture() throws {
    let data = try JSONEncoder().encode(Time(.distantFuture))
    let decoded = try JSONDecoder().decode(Time.self, from: data)
    #expect(decoded.dispatchTime == .distantFuture)
    let now = DispatchQueue.main.now
    #expect(try JSONDecoder().decode(Time.self, from: JSONEncoder().encode(now)) == now)
  }

  @Test func decodingAMalformedTimeThrows() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Time.self, from: Data(#""soon""#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Time.self, from: Data("-5".utf8))
    }
  }
}
