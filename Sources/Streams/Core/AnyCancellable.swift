/// A type-erased cancellable that cancels when it is deinitialised.
///
/// Keep the `AnyCancellable` returned by `sink` (for example with `store(in:)`) for as long as
/// the subscription should live; releasing it cancels.
///
/// ```swift
/// var cancellables = Set<AnyCancellable>()
/// subject.sink { print($0) }.store(in: &cancellables)
/// ```
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
  private let lock = StreamsLock()
  // Protected by `lock`: the cancel action, nil once run.
  private var action: (() -> Void)?

  /// Wraps a closure run once, on the first `cancel()` or at deinit.
  public init(_ cancel: @escaping () -> Void) {
    action = cancel
  }

  /// Wraps another cancellable.
  public init<C: Cancellable>(_ canceller: C) {
    action = canceller.cancel
  }

  deinit {
    action?()
  }

  public func cancel() {
    lock.lock()
    let action = self.action
    self.action = nil
    lock.unlock()
    action?()
  }

  /// Appends this cancellable to `collection`.
  public func store<C: RangeReplaceableCollection>(in collection: inout C)
  where C.Element == AnyCancellable {
    collection.append(self)
  }

  /// Inserts this cancellable into `set`.
  public func store(in set: inout Set<AnyCancellable>) {
    set.insert(self)
  }

  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
