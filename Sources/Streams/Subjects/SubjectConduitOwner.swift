/// What a subject offers its conduits beyond its core: for `CurrentValueSubject`, the current
/// value with its send sequence number.
@usableFromInline
internal protocol SubjectConduitOwner<Output>: AnyObject, Sendable {
  associatedtype Output
  func currentValue() -> (value: Output, sequence: UInt64)?
}
