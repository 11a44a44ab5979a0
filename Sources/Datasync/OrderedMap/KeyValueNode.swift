/// The plain node of a ``PersistentOrderedMap``: a key, a value of any type and the size of its
/// subtree.
///
/// `@usableFromInline` with an `@inlinable` initialiser, so that a map of a caller's type (the
/// children a `children(as:)` subscription decodes) is specialised with it: unspecialised,
/// every node made or dropped looks up the generic metadata of its class and copies its value
/// through value witnesses.
@usableFromInline
package final class KeyValueNode<Value>: OrderedMapNode {
  @usableFromInline package let key: WebcomKey
  @usableFromInline package let value: Value
  @usableFromInline package let left: KeyValueNode?
  @usableFromInline package let right: KeyValueNode?
  @usableFromInline package let count: Int

  @inlinable
  package init(_ key: WebcomKey, _ value: Value, _ left: KeyValueNode?, _ right: KeyValueNode?) {
    count = (left?.count ?? 0) + (right?.count ?? 0) + 1
    self.key = key
    self.value = value
    self.left = left
    self.right = right
  }

  @inlinable
  package convenience init(
    entryOf entry: borrowing KeyValueNode, _ left: KeyValueNode?, _ right: KeyValueNode?
  ) {
    self.init(entry.key, entry.value, left, right)
  }
}

extension KeyValueNode: Sendable where Value: Sendable {}
