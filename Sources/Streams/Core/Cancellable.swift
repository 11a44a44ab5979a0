/// Something that can be cancelled: a subscription, a scheduled action, a stored sink.
public protocol Cancellable {
  /// Stops the activity and releases its resources; calling it again does nothing.
  func cancel()
}

extension Cancellable {
  /// Stores this cancellable, type-erased, in `collection`.
  public func store<C: RangeReplaceableCollection>(in collection: inout C)
  where C.Element == AnyCancellable {
    AnyCancellable(self).store(in: &collection)
  }

  /// Stores this cancellable, type-erased, in `set`.
  public func store(in set: inout Set<AnyCancellable>) {
    AnyCancellable(self).store(in: &set)
  }
}
