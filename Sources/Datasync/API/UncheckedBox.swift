/// Carries a value that is only used on one queue to that queue: a transfer box, without a lock,
/// sendable because nothing but that queue ever reads the value.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
