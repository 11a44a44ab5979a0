/// What happens to the cached data of a subscription once it is cancelled or revoked.
public enum DatasyncCompletedSubscriptionPolicy: Sendable, Hashable {
  /// The cached data may be dropped.
  case forgetData
  /// The cached data is kept as it is (no longer updated).
  case keepData
  /// The cached data is kept and kept up to date.
  case keepUpdatingData
  /// Like ``keepUpdatingData`` after an implicit cancellation, like ``forgetData`` otherwise.
  case keepUpdatingDataWhenImplicit
}
