import Foundation
import Testing

@testable import Datasync

/// Bounded randomized tests of the rules parsers: random text and mutated valid rules never
/// crash; they parse (and then evaluate without crashing) or fail with a position inside the
/// text.
@Suite struct RulesParserFuzzTests {
  /// Pieces random expressions are made of: tokens, near-tokens and awkward characters.
  private static let fragments: [String] = [
    "data", "newData", "root", "auth", "now", "$uid", "$x", "true", "false", "null", "uid",
    "token", "level", ".", "(", ")", "[", "]", ",", "'", "\"", "'a'", "'users/'", "/", "/a/",
    "/^[a-z]+$/i", "\\", "?", ":", "!", "-", "+", "*", "%", "==", "===", "!=", "<", "<=", ">",
    ">=", "&&", "||", "&", "|", "=", "0", "1", "1.5", "1e3", "9223372036854775808", "child",
    "parent", "hasChild", "hasChildren", "exists", "val", "isString", "length", "contains",
    "beginsWith", "replace", "toUpperCase", "matches", "foo", " ", "  ", "\n", "\u{E9}",
    "\u{1F600}", "\u{0}", "{", "}", "#", "`", "@",
  ]

  private static let validExpressions: [String] = RuleExpressionTests.allCases.compactMap {
    if case .value = $0.expected, $0.authenticated { return $0.expression }
    return nil
  }

  private static func randomText(
    _ generator: inout SeededRandom, maximumFragments: Int = 24
  ) -> String {
    let count = Int.random(in: 0...maximumFragments, using: &generator)
    return (0..<count).map { _ in fragments.randomElement(using: &generator)! }.joined()
  }

  /// `text` with one random edit: a deletion, an insertion, a duplication or a swap.
  private static func mutated(_ text: String, _ generator: inout SeededRandom) -> String {
    var scalars = Array(text.unicodeScalars)
    guard !scalars.isEmpty else { return randomText(&generator) }
    let start = Int.random(in: 0..<scalars.count, using: &generator)
    let end = min(scalars.count, start + Int.random(in: 1...6, using: &generator))
    switch Int.random(in: 0..<4, using: &generator) {
    case 0:
      scalars.removeSubrange(start..<end)
    case 1:
      scalars.insert(
        contentsOf: fragments.randomElement(using: &generator)!.unicodeScalars, at: start)
    case 2:
      scalars.insert(contentsOf: scalars[start..<end], at: end)
    default:
      let other = Int.random(in: 0..<scalars.count, using: &generator)
      scalars.swapAt(start, other)
    }
    return String(String.UnicodeScalarView(scalars))
  }

  /// Parses `text` directly; a syntax error must point inside it (or just after its end).
  private static func checkParse(_ text: String) -> RuleExpression? {
    do {
      return try RuleParser.parse(text, variables: ["uid": 1], allowsNewData: true)
    } catch {
      #expect((0...text.utf8.count).contains(error.offset), "\(text): \(error.message)")
      #expect(!error.message.isEmpty)
      return nil
    }
  }

  private static func evaluate(_ expression: RuleExpression, auth: DatasyncAuthentication?) {
    evaluate(RuleCompiler.condition(expression), auth: auth)
  }

  private static func evaluate(_ condition: RuleCompiler.Condition, auth: DatasyncAuthentication?) {
    let location: [WebcomKey] = ["users", "alice"]
    let evaluator = RuleEvaluator(
      context: RuleContext(
        auth: auth, now: 1_700_000_000_000, oldRoot: RulesFixture.oldRoot,
        newRoot: RulesFixture.newRoot),
      location: location, depth: 2,
      data: RulesFixture.oldRoot.value(at: location),
      newData: RulesFixture.newRoot.value(at: location))
    _ = evaluator.isTrue(condition)
  }

  @Test func randomTextParsesOrFailsWithAPosition() {
    var generator = SeededRandom(seed: 0x5EC0_7E5)
    var parsed = 0
    for _ in 0..<4_000 {
      let text = Self.randomText(&generator)
      guard let expression = Self.checkParse(text) else { continue }
      parsed += 1
      Self.evaluate(expression, auth: RulesFixture.alice)
      Self.evaluate(expression, auth: nil)
    }
    #expect(parsed > 0)
  }

  private static let leaves = [
    "1", "2.5", "-3", "0", "9223372036854775807", "'a'", "'users'", "'alice/name'", "''", "true",
    "false", "null", "now", "$uid", "auth.uid", "auth.token.level", "auth.token.roles",
    "data.val()", "newData.child('name').val()", "root.child('users/alice/age').val()",
    "data.child('score').val()", "data.exists()", "auth",
  ]

  /// A random expression from the grammar, often ill-typed, so that evaluation meets every
  /// kind of value in every operation.
  private static func grammatical(_ depth: Int, _ generator: inout SeededRandom) -> String {
    guard depth > 0, Int.random(in: 0..<5, using: &generator) > 0 else {
      return leaves.randomElement(using: &generator)!
    }
    func sub(_ generator: inout SeededRandom) -> String {
      grammatical(depth - 1, &generator)
    }
    switch Int.random(in: 0..<9, using: &generator) {
    case 0, 1:
      let operation = [
        "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "&&", "||",
      ].randomElement(using: &generator)!
      return "(\(sub(&generator)) \(operation) \(sub(&generator)))"
    case 2: return "!(\(sub(&generator)))"
    case 3: return "-(\(sub(&generator)))"
    case 4: return "(\(sub(&generator)) ? \(sub(&generator)) : \(sub(&generator)))"
    case 5: return "data.child(\(sub(&generator))).val()"
    case 6: return "root.hasChildren([\(sub(&generator)), 'users'])"
    case 7:
      let method = ["contains", "beginsWith", "endsWith"].randomElement(using: &generator)!
      return "(\(sub(&generator))).\(method)(\(sub(&generator)))"
    default:
      let member = [
        ".length", ".toUpperCase()", ".replace('a', \(sub(&generator)))", ".matches(/^a|\\d+$/i)",
      ].randomElement(using: &generator)!
      return "(\(sub(&generator)))\(member)"
    }
  }

  @Test func randomGrammaticalExpressionsParseOrFailWithAPosition() {
    var generator = SeededRandom(seed: 0x6AA3_3A12)
    var parsed = 0
    for _ in 0..<3_000 {
      var text = Self.grammatical(5, &generator)
      if Bool.random(using: &generator) {
        text = "(\(text)) == (\(Self.grammatical(3, &generator)))"
      }
      guard let expression = Self.checkParse(text) else { continue }
      parsed += 1
      Self.evaluate(expression, auth: RulesFixture.alice)
      Self.evaluate(expression, auth: nil)
    }
    #expect(parsed > 200)
  }

  @Test func mutatedValidRulesParseOrFailWithAColumn() {
    var generator = SeededRandom(seed: 0xD47A_5ECD)
    var parsed = 0
    for iteration in 0..<4_000 {
      var text = Self.validExpressions[iteration % Self.validExpressions.count]
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        text = Self.mutated(text, &generator)
      }
      do {
        let rules = try DatasyncRules(json: RulesFixture.document(validating: text))
        parsed += 1
        Self.evaluate(
          rules.root.child("users")!.child("alice")!.validate!.condition,
          auth: RulesFixture.alice)
      } catch {
        #expect(error.code == .invalidArgument)
        guard case .syntaxError(let column, _) = RulesFixture.syntaxOutcome(error) else {
          Issue.record("\(text): no column in \(error.message)")
          continue
        }
        #expect((1...(text.unicodeScalars.count + 1)).contains(column), "\(text): \(error)")
      }
    }
    #expect(parsed > 0)
  }

  @Test func mutatedDocumentsCompileOrFailWithAPlace() {
    let document = RulesAccessTests.rules.description
    var generator = SeededRandom(seed: 0xD0C5)
    var compiled = 0
    for _ in 0..<1_500 {
      var text = document
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        text = Self.mutated(text, &generator)
      }
      guard let error = rulesError(text) else {
        compiled += 1
        continue
      }
      #expect(error.code == .invalidArgument)
      #expect(
        error.message.contains(" column "), "\(error.message) names no line nor column")
    }
    #expect(compiled > 0)
  }

  @Test func randomRegularExpressionsCompileOrFailWithAnOffset() {
    let pieces = [
      "a", "b", "é", ".", "*", "+", "?", "{", "}", "{2}", "{1,3}", "{,", "(", ")", "[", "]",
      "[^", "-", "^", "$", "|", "\\", "\\d", "\\W", "\\s", "\\b", "\\u00e9", "\\u12",
    ]
    let strings = ["", "a", "ab", "aaab", "é", "a-b", "b|a", "12", " ", "(a)"]
    var generator = SeededRandom(seed: 0x4E6E)
    var compiled = 0
    for _ in 0..<4_000 {
      let count = Int.random(in: 0...12, using: &generator)
      let pattern = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
      let flags = ["", "", "i", "g"].randomElement(using: &generator)!
      do {
        let regex = try RuleRegex(pattern: pattern, flags: flags)
        compiled += 1
        for string in strings { _ = regex.matches(string) }
      } catch {
        #expect((0...(pattern.utf8.count + 1)).contains(error.offset), "/\(pattern)/\(flags)")
      }
    }
    #expect(compiled > 0)
  }
}
