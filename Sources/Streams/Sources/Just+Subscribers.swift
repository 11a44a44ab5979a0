// The subscribers on `Just` deliver directly: a `Just` subscribed by `sink` or `assign` gets the
// subscriber's unlimited demand at once, so its value and `.finished` are delivered before the
// call returns and the subscription has ended. These overloads do exactly that without building
// the subscription, the subscriber and the closures' box.

extension Just {
  /// Calls `receiveValue` with the value, then `receiveCompletion` with `.finished`, before
  /// returning, as the general `sink` does for a `Just`.
  ///
  /// Same events in the same order as through a subscription; the closures are not kept (they
  /// need not escape), and the returned cancellable has nothing left to cancel, as the general
  /// path's has once the `Just` finished.
  ///
  /// ```swift
  /// let cancellable = Just(2).sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  @inlinable
  public func sink(
    receiveCompletion: (Subscribers.Completion<Never>) -> Void,
    receiveValue: (Output) -> Void
  ) -> AnyCancellable {
    receiveValue(output)
    receiveCompletion(.finished)
    return AnyCancellable()
  }

  /// Calls `receiveValue` with the value before returning, as the general `sink` does for a
  /// `Just`.
  ///
  /// The closure is not kept (it need not escape), and the returned cancellable has nothing left
  /// to cancel, as the general path's has once the `Just` finished.
  @inlinable
  public func sink(receiveValue: (Output) -> Void) -> AnyCancellable {
    receiveValue(output)
    return AnyCancellable()
  }

  /// Writes the value to `object[keyPath: keyPath]` before returning, as the general `assign`
  /// does for a `Just`.
  ///
  /// The object is not retained past the call, as the general path releases it once the `Just`
  /// finished; the returned cancellable has nothing left to cancel.
  @inlinable
  public func assign<Root>(
    to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
  ) -> AnyCancellable {
    object[keyPath: keyPath] = output
    return AnyCancellable()
  }
}
