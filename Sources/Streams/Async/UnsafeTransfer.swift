/// Carries a value across a concurrency boundary that the compiler cannot prove safe.
///
/// Used only to hand one value from the thread that received it to the task awaiting it: the
/// sender never touches the value again.
@usableFromInline
internal struct UnsafeTransfer<Value>: @unchecked Sendable {
  @usableFromInline let value: Value

  @inlinable
  init(_ value: Value) {
    self.value = value
  }
}
