import Foundation

/// A reference to a node of the database tree, at an absolute path.
///
/// All nodes exist: a node that holds no data has the value null. A node keeps its manager (and
/// so its service) alive. Two nodes are equal when they refer to the same path of the same
/// service.
///
/// ```swift
/// let room = manager / "rooms/general"
/// let messages = room! / "messages"
/// ```
public final class DatasyncNode: Hashable, CustomStringConvertible, Sendable {
  let manager: DatasyncManager
  let location: DatasyncPath

  init(manager: DatasyncManager, location: DatasyncPath) {
    self.manager = manager
    self.location = location
  }

  var client: DatasyncClient { manager.service.client }
  var context: ApplicationContext { manager.service.context }

  /// The absolute path: `/` for the root, else `/` followed by the keys separated by `/`.
  public var path: String { location.string }

  /// The last key of the path; the empty string for the root.
  public var key: WebcomKey { location.key }

  /// The parent node; nil for the root.
  public var parent: DatasyncNode? {
    location.parent.map { DatasyncNode(manager: manager, location: $0) }
  }

  /// The parent node.
  ///
  /// - Throws: ``WebcomError`` with code `invalidPath` for the root, which has no parent.
  public var parentThrows: DatasyncNode {
    get throws {
      guard let parent else {
        throw WebcomError(.invalidPath, "the root node \"/\" has no parent")
      }
      return parent
    }
  }

  /// The node at a path relative to this one; nil only when the path is ill-formed.
  ///
  /// Segments are separated by `/`: `.` and empty segments do nothing, `..` goes up (nothing at
  /// the root), any other segment goes down to the child of that key. From `/foo/bar`, `geek/`
  /// gives `/foo/bar/geek`, `../geek/./noob` gives `/foo/geek/noob`.
  public func relativeNode(for path: String) -> DatasyncNode? {
    try? relativeNodeThrows(for: path)
  }

  /// The node at a path relative to this one.
  ///
  /// - Throws: ``WebcomError`` with code `invalidPath` naming the path and the reason.
  public func relativeNodeThrows(for path: String) throws -> DatasyncNode {
    DatasyncNode(manager: manager, location: try location.resolving(path))
  }

  /// `node.relativeNode(for: path)`.
  public static func / (node: DatasyncNode, path: String) -> DatasyncNode? {
    node.relativeNode(for: path)
  }

  /// A new child whose key is a push identifier: unique, and ordered chronologically with the
  /// other push identifiers of this process.
  ///
  /// As every node exists, this always returns a node. But a node 32 levels deep, or whose path
  /// leaves less than 21 bytes of the 768 allowed, cannot have children: its new child's path is
  /// over the limits of paths, so the child holds no data (it reads as null) and every write to
  /// it (`set`, `merge`, `push`, `increment`, `transaction`, a copy to it, a disconnection
  /// operation) fails with `invalidPath` and stores nothing. ``push(_:queue:then:)`` returns nil
  /// there.
  public func createChild() -> DatasyncNode {
    DatasyncNode(
      manager: manager,
      location: location.child(PushIdentifierGenerator.shared.next(at: client.backEndNow)))
  }

  /// The value in the local cache, null when nothing is cached (prefer ``value(queue:then:)``).
  ///
  /// The cache holds what a subscription at, above or below the node keeps up to date, with this
  /// service's writes applied while the back end has not acknowledged them. Once acknowledged, a
  /// write where nothing is subscribed leaves nothing in the cache (nor does a read there): a
  /// service that writes without subscribing does not keep a copy of everything it wrote.
  public var cachedValue: DatasyncValue { context.value(client.cachedValue(at: location)) }

  public static func == (lhs: DatasyncNode, rhs: DatasyncNode) -> Bool {
    lhs.manager.service === rhs.manager.service && lhs.location == rhs.location
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(manager.service))
    hasher.combine(location)
  }

  /// The path.
  public var description: String { path }
}
