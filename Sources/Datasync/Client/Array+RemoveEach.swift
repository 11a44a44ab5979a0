extension Array {
  /// Removes the elements one by one, first to last, handing each to `body`; the array is left
  /// empty with its storage.
  ///
  /// Each element is moved out, where iterating over the array and then emptying it would copy
  /// each one and release it again (a retain and a release per reference it holds).
  @inline(__always)
  mutating func removeEach(_ body: (Element) throws -> Void) rethrows {
    reverse()
    while let element = popLast() { try body(element) }
  }
}
