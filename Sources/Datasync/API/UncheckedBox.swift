/// Carries a value that is only used on one queue to that queue.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
