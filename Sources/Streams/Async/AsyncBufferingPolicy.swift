/// What a buffered `values` sequence keeps when values arrive faster than the loop takes them.
public enum AsyncBufferingPolicy: Sendable, Equatable {
  /// Keep every value.
  case unbounded
  /// Keep at most `n` values; when full, values that arrive are dropped.
  case bufferingOldest(Int)
  /// Keep at most `n` values; when full, the oldest kept value is dropped for the new one.
  case bufferingNewest(Int)
}
