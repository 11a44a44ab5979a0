import Testing

@testable import Datasync

/// Paths joined with `+`: the segments compiled once when each is one key whatever the location,
/// and the same keys as joining the text at each evaluation.
@Suite struct JoinedPathTests {
  /// The parts of the path of `root.child(path)`.
  private static func parts(_ path: String) -> [RuleExpression.PathPart] {
    let expression = try! RuleParser.parse(
      "root.child(\(path)).exists()", variables: ["room": 1, "uid": 2], allowsNewData: true)
    guard case .read(.root, let paths, .exists) = expression,
      case .concatenation(let parts)? =
        paths.first
    else {
      Issue.record("\(path) is not a joined path: \(expression)")
      return []
    }
    return parts
  }

  private static let evaluator = RuleEvaluator(
    context: RuleContext(
      auth: DatasyncAuthentication(uid: "alice"), now: 0, oldRoot: .null, newRoot: .null),
    location: ["rooms", "general", "bob"], depth: 3, data: .null, newData: .null)

  @Test func keysVariablesAndTheUIDFillingWholeSegmentsAreCompiled() {
    #expect(
      JoinedPath.segments(of: Self.parts("'members/' + $room + '/' + auth.uid"))
        == [.key("members"), .variable(depth: 1), .authUID])
    #expect(
      JoinedPath.segments(of: Self.parts("'a//b/' + $uid + '/c/'"))
        == [.key("a"), .key("b"), .variable(depth: 2), .key("c")])
    #expect(
      JoinedPath.segments(of: Self.parts("$room + '/x'")) == [.variable(depth: 1), .key("x")])
  }

  @Test func segmentsThatDependOnTheValuesAreJoinedAtEachEvaluation() {
    // Text joined to a variable, a computed part, a segment that is no key, no key at all.
    for path in [
      "'user_' + $uid", "$room + $uid", "'a/' + auth.token.team", "'a/b' + '.c/' + $uid",
      "'/' + '/'",
    ] {
      #expect(JoinedPath.segments(of: Self.parts(path)) == nil, "\(path)")
    }
  }

  @Test(arguments: [
    "'members/' + $room + '/' + auth.uid", "'a//b/' + $uid + '/c/'", "$room + '/x'",
    "'user_' + $uid", "$room + $uid + '/' + auth.uid", "'/' + $room + '/'",
  ])
  func compiledSegmentsGiveTheKeysOfTheJoinedText(_ path: String) throws {
    let parts = Self.parts(path)
    let joined = try JoinedPath.keys(
      joining: parts.map(JoinedPath.Part.init), at: Self.evaluator)
    guard let segments = JoinedPath.segments(of: parts) else { return }
    let keys = try segments.map { try $0.key(at: Self.evaluator) }
    #expect(keys == joined)
  }

  @Test func aUIDThatIsNotOneKeyIsLeftToTheJoinedText() throws {
    let evaluator = RuleEvaluator(
      context: RuleContext(
        auth: DatasyncAuthentication(uid: "alice/name"), now: 0, oldRoot: .null, newRoot: .null),
      location: Self.evaluator.location, depth: 3, data: .null, newData: .null)
    #expect(try JoinedPath.Segment.authUID.key(at: evaluator) == nil)
    #expect(
      RulesFixture.evaluate(
        "root.child('users/' + auth.uid).val() == 'Alice'",
        auth: DatasyncAuthentication(uid: "alice/name")) == .value(true))
  }
}
