/// Identifies a request that expects an answer — a write, a disconnection write or its
/// cancellation, a read, an authentication or a sign-out — unique within one client.
typealias RequestIdentifier = UInt64
