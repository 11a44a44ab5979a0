import Synchronization

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
  // `isCancelled` admits one caller of `cancel()`: only that caller (or `deinit`, which runs after
  // every other access) reads and clears `target`. An atomic flag rather than a lock saves
  // allocating a lock for every subscription.
  private let isCancelled = Atomic<Bool>(false)
  // What to cancel; touched only by the caller `isCancelled` admitted, or by `deinit`. It is
  // `@exclusivity(unchecked)`: that hand-over already makes each access exclusive, and the
  // runtime check cost two calls on every release.
  @exclusivity(unchecked) private var target: Target?

  /// What an `AnyCancellable` cancels: a wrapped cancellable is kept as itself rather than as a
  /// closure over its `cancel` method, which would take one more allocation per subscription.
  private enum Target {
    case action(() -> Void)
    case cancellable(any Cancellable)

    func cancel() {
      switch self {
      case .action(let action): action()
      case .cancellable(let cancellable): cancellable.cancel()
      }
    }
  }

  /// Wraps a closure run once, on the first `cancel()` or at deinit.
  public init(_ cancel: @escaping () -> Void) {
    target = .action(cancel)
  }

  /// Wraps another cancellable.
  public init<C: Cancellable>(_ canceller: C) {
    target = .cancellable(canceller)
  }

  /// Wraps a cancellable already made existential where its type is known (as `sink` does), so
  /// that it is not boxed again at run time by the generic initialiser.
  @usableFromInline
  internal init(wrapping canceller: any Cancellable) {
    target = .cancellable(canceller)
  }

  /// A cancellable with nothing left to cancel: what a subscription that already ended at once
  /// (as `sink` on `Just` does) returns, still an object of its own for `store(in:)`.
  @usableFromInline
  internal init() {
    target = nil
  }

  deinit {
    if !isCancelled.load(ordering: .acquiring) {
      target?.cancel()
    }
  }

  public func cancel() {
    guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let target = self.target.take()
    target?.cancel()
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
