/// What a subject offers its conduits: removal on cancel, the news that a subscriber asked for
/// values and, for `CurrentValueSubject`, the current value with its send sequence number.
@usableFromInline
internal protocol SubjectConduitOwner<Output>: AnyObject, Sendable {
  associatedtype Output
  func detach(_ conduit: ObjectIdentifier)
  func downstreamDidDemand()
  func currentValue() -> (value: Output, sequence: UInt64)?
}
