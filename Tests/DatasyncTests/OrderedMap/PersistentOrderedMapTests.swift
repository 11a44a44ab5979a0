import Foundation
import Testing

@testable import Datasync

/// The map with its plain node, as `children(as:)` keeps decoded children; ``JSONObjectTests``
/// run the same map with the value model's node.
@Suite struct PersistentOrderedMapTests {
  typealias Map = PersistentOrderedMap<KeyValueNode<Int>>

  @Test(arguments: [1, 2, 3, 4])
  func matchesASortedDictionaryModel(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var tree = Map()
    var model: [WebcomKey: Int] = [:]
    for step in 0..<4_000 {
      let key = WebcomKey(String(Int.random(in: 0..<600, using: &random)))
      if Bool.random(using: &random) || model.isEmpty {
        tree = tree.setting(step, for: key)
        model[key] = step
      } else {
        tree = tree.removing(key)
        model[key] = nil
      }
      if step % 250 == 0 { check(tree, against: model) }
    }
    check(tree, against: model)
  }

  @Test func keepsEarlierVersionsIntact() {
    var versions: [Map] = [Map()]
    for value in 0..<100 {
      versions.append(versions[versions.count - 1].setting(value, for: WebcomKey(String(value))))
    }
    for (count, version) in versions.enumerated() {
      #expect(version.count == count)
    }
    #expect(versions[50].value(for: "49") == 49)
    #expect(versions[50].value(for: "50") == nil)
  }

  @Test func containsValueFindsAValueAtEveryPositionAndStopsThere() {
    let tree = Map(increasing: (0..<200).map { (WebcomKey(String(format: "k%03d", $0)), $0) })
    #expect(!Map().containsValue { _ in true })
    #expect(!tree.containsValue { $0 < 0 })
    for wanted in [0, 1, 63, 64, 100, 199] {
      var looked: [Int] = []
      #expect(
        tree.containsValue { value in
          looked.append(value)
          return value == wanted
        })
      // A walk in key order, which ends at the value found.
      #expect(looked == Array(0...wanted))
    }
  }

  @Test func staysBalanced() {
    var tree = Map()
    for value in 0..<10_000 {
      tree = tree.setting(value, for: WebcomKey(String(value)))
    }
    #expect(height(tree.root) <= 2 * Int(log2(Double(tree.count)).rounded(.up)) + 2)
  }

  /// Keys added in increasing order (push identifiers) leave a right spine, which the next key
  /// copies, of 16 nodes at 10,000 keys (a perfectly balanced tree has 14 levels); the balance
  /// parameters (3, 2) left 18.
  @Test func increasingKeysLeaveAShortRightSpine() {
    var tree = Map()
    for value in 0..<10_000 {
      tree = tree.setting(value, for: Self.key(value))
    }
    var spine = 0
    var node = tree.root
    while let current = node {
      spine += 1
      node = current.right
    }
    #expect(spine <= 16)
    #expect(isWeightBalanced(tree.root))
  }

  @Test(arguments: [0, 1, 2, 3, 7, 8, 1_000])
  func buildsABalancedTreeFromIncreasingKeys(count: Int) {
    let keys = (0..<count).map { WebcomKey(String($0)) }.sorted()
    var tree = Map(increasing: keys.enumerated().map { ($0.element, $0.offset) })
    var model = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($0.element, $0.offset) })
    check(tree, against: model)
    #expect(height(tree.root) <= Int(log2(Double(count + 1)).rounded(.up)))
    // Later changes keep it a weight-balanced tree.
    var random = SeededRandom(seed: UInt64(count))
    for step in 0..<500 {
      let key = WebcomKey(String(Int.random(in: 0..<(count + 50), using: &random)))
      if Bool.random(using: &random) {
        tree = tree.setting(-step, for: key)
        model[key] = -step
      } else {
        tree = tree.removing(key)
        model[key] = nil
      }
    }
    check(tree, against: model)
  }

  /// Batches of any size and shape (a few keys, long runs past either end, removals of whole
  /// ranges, keys absent from the tree) give the model's entries in a weight-balanced tree.
  @Test(arguments: [1, 2, 3, 4, 5, 6])
  func appliesSortedBatchesAsTheModelDoes(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var tree = Map()
    var model: [Int: Int] = [:]
    for step in 0..<300 {
      var batch: [Int: Int?] = [:]
      let lowest = Int.random(in: -200..<2_000, using: &random)
      let span = [1, 10, 400][Int.random(in: 0..<3, using: &random)]
      let removes = Double.random(in: 0..<1, using: &random)
      for _ in 0..<Int.random(in: 1...span, using: &random) {
        let key = lowest + Int.random(in: 0..<(span * 2), using: &random)
        batch[key] = Double.random(in: 0..<1, using: &random) < removes ? nil : .some(step)
      }
      let sorted = batch.keys.map { key in (key: Self.key(key), value: batch[key]!) }
        .sorted { $0.key < $1.key }
      tree = tree.applying(sortedChanges: sorted[...])
      for (key, value) in batch { model[key] = value }
      #expect(isWeightBalanced(tree.root), "step \(step)")
    }
    check(
      tree, against: Dictionary(uniqueKeysWithValues: model.map { (Self.key($0.key), $0.value) }))
  }

  @Test func appendsALongRunAfterEveryKeyAsOneBalancedTree() {
    var tree = Map()
    var model: [WebcomKey: Int] = [:]
    for run in 0..<20 {
      let keys = (run * 500..<(run + 1) * 500).map { Self.key($0) }
      tree = tree.applying(sortedChanges: keys.map { (key: $0, value: .some(run)) }[...])
      for key in keys { model[key] = run }
      #expect(isWeightBalanced(tree.root))
    }
    let removals = (0..<9_000).map { (key: Self.key($0), value: Int?.none) }
    tree = tree.applying(sortedChanges: removals[...])
    for index in 0..<9_000 { model[Self.key(index)] = nil }
    #expect(isWeightBalanced(tree.root))
    check(tree, against: model)
  }

  /// Keys that sort as the integers do (zero-padded).
  private static func key(_ value: Int) -> WebcomKey {
    WebcomKey(String(format: "k%+06d", value))
  }

  /// Whether every subtree is sized, ordered and weight-balanced (5/2 × the weight of each side
  /// at least the other's, weight = size + 1).
  private func isWeightBalanced(_ node: KeyValueNode<Int>?) -> Bool {
    guard let node else { return true }
    let leftWeight = (node.left?.count ?? 0) + 1
    let rightWeight = (node.right?.count ?? 0) + 1
    return node.count == leftWeight + rightWeight - 1
      && 5 * leftWeight >= 2 * rightWeight && 5 * rightWeight >= 2 * leftWeight
      && node.left.map { $0.key < node.key } ?? true
      && node.right.map { node.key < $0.key } ?? true
      && isWeightBalanced(node.left) && isWeightBalanced(node.right)
  }

  private func height(_ node: KeyValueNode<Int>?) -> Int {
    guard let node else { return 0 }
    return 1 + max(height(node.left), height(node.right))
  }

  private func check(_ tree: Map, against model: [WebcomKey: Int]) {
    let sorted = model.sorted { $0.key < $1.key }
    #expect(tree.count == sorted.count)
    #expect(tree.map(\.key) == sorted.map(\.key))
    for (index, entry) in sorted.enumerated() {
      #expect(tree.index(of: entry.key) == index)
      #expect(tree.element(atRank: index).key == entry.key)
      #expect(tree.value(for: entry.key) == entry.value)
    }
    #expect(tree.index(of: "absent-key") == nil)
    #expect(tree.rank(of: "absent-key") == sorted.filter { $0.key < "absent-key" }.count)
    #expect(tree.isValid)
    for probe in sorted.map(\.key).prefix(50) + ["", "absent-key", "zzz"] {
      #expect(tree.key(before: probe) == sorted.last { $0.key < probe }?.key)
      #expect(tree.key(after: probe) == sorted.first { probe < $0.key }?.key)
    }
  }

  @Test func removingAnAbsentKeySharesTheStorage() {
    let tree = Map(increasing: (0..<100).map { (Self.key($0), $0) })
    #expect(tree.removing(Self.key(100)).isIdentical(to: tree))
    #expect(tree.removing(Self.key(-1)).isIdentical(to: tree))
    #expect(!tree.removing(Self.key(50)).isIdentical(to: tree))
    #expect(tree.count == 100 && tree.value(for: Self.key(50)) == 50)
  }
}
