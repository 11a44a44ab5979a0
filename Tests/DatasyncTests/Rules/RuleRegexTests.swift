import Testing

@testable import Datasync

/// A pattern, its flags, a string and whether the pattern matches it.
struct RegexCase: Sendable, CustomTestStringConvertible {
  let pattern: String
  let flags: String
  let string: String
  let matches: Bool

  init(_ pattern: String, flags: String = "", _ string: String, _ matches: Bool) {
    self.pattern = pattern
    self.flags = flags
    self.string = string
    self.matches = matches
  }

  var testDescription: String { "/\(pattern)/\(flags) on \"\(string)\"" }
}

@Suite struct RuleRegexTests {
  static let cases: [RegexCase] = [
    RegexCase("a", "ba", true),
    RegexCase("^a", "ba", false),
    RegexCase("a$", "ab", false),
    RegexCase("^a*$", "", true),
    RegexCase("^a*$", "aaa", true),
    RegexCase("^a*$", "b", false),
    RegexCase("^a+$", "", false),
    RegexCase("^a+$", "aaa", true),
    RegexCase("^a?$", "", true),
    RegexCase("^a?$", "aa", false),
    RegexCase("^........$", "Firebase", true),
    RegexCase("^(ab)*$", "abab", true),
    RegexCase("^(ab)*$", "aba", false),
    RegexCase("a|bc", "ac", true),
    RegexCase("^(a|bc)$", "b", false),
    RegexCase("^[ABCDEF]+$", "FACADE", true),
    RegexCase("^[ABCDEF]+$", "FACADe", false),
    RegexCase("^[0-9A-F]+$", "1F", true),
    RegexCase("^[^0-9]+$", "abc", true),
    RegexCase("^[^0-9]+$", "ab1", false),
    RegexCase("^\\d{4}$", "2024", true),
    RegexCase("^\\d{4}$", "202", false),
    RegexCase("^\\d{2,}$", "12345", true),
    RegexCase("^\\d{2,3}$", "1234", false),
    RegexCase("^\\w+$", "snake_case_1", true),
    RegexCase("^\\W+$", "-+-", true),
    RegexCase("^\\s+$", " \t\u{A0}", true),
    RegexCase("^\\S+$", "a b", false),
    RegexCase("^\\D$", "x", true),
    RegexCase("^[\\d-]+$", "12-34", true),
    RegexCase("^[\\D]+$", "ab", true),
    RegexCase("^[a\\-z]+$", "a-z", true),
    RegexCase("^[a\\-z]+$", "b", false),
    RegexCase("^a\\.b$", "a.b", true),
    RegexCase("^a\\.b$", "axb", false),
    RegexCase("^\\/\\$\\^\\($", "/$^(", true),
    RegexCase("^\\u00e9$", "\u{E9}", true),
    RegexCase("^.$", "\u{E9}", true),
    RegexCase("^.$", "e\u{301}", false),
    RegexCase("^abc$", flags: "i", "ABC", true),
    RegexCase("^[a-z]+$", flags: "i", "MiXeD", true),
    RegexCase("^\u{E9}t\u{E9}$", flags: "i", "\u{C9}T\u{C9}", true),
    RegexCase("^abc$", "ABC", false),
    RegexCase("^(19|20)\\d\\d[-/. ](0[1-9]|1[012])$", "2024-07", true),
    RegexCase("^(19|20)\\d\\d[-/. ](0[1-9]|1[012])$", "2024-13", false),
    RegexCase("^(a*)*$", "aaaa", true),
    RegexCase("^()$", "", true),
    RegexCase("x|", "abc", true),
  ]

  @Test(arguments: cases)
  func matching(_ testCase: RegexCase) throws {
    let regex = try RuleRegex(pattern: testCase.pattern, flags: testCase.flags)
    #expect(regex.matches(testCase.string) == testCase.matches)
  }

  static let errors: [(pattern: String, flags: String, offset: Int, message: String)] = [
    ("a^b", "", 1, "\"^\" anchors only as the first character"),
    ("a$b", "", 1, "\"$\" anchors only as the last character"),
    ("(a$)", "", 2, "\"$\" anchors only as the last character"),
    ("(a", "", 0, "expected \")\" to close the group"),
    ("(?:a)", "", 1, "\"(?\" groups are not supported"),
    ("[]", "", 0, "a character class may not be empty"),
    ("[a", "", 0, "expected \"]\" to close the character class"),
    ("[z-a]", "", 2, "the range z-a is out of order"),
    ("\\b", "", 0, "unsupported escape \\b"),
    ("\\1", "", 0, "unsupported escape \\1"),
    ("a\\", "", 1, "lone \"\\\""),
    ("a)", "", 1, "unbalanced \")\""),
    ("a]", "", 1, "\"]\" must be escaped"),
    ("*a", "", 0, "nothing to repeat"),
    ("a**", "", 2, "nothing to repeat"),
    ("a{2,1}", "", 1, "out of order"),
    ("a{1001}", "", 1, "a repetition count is at most 1000"),
    ("a{x}", "", 1, "expected a repetition count"),
    ("a{2", "", 1, "expected \"}\" to close the repetition"),
    ("(a{1000}){3}", "", 0, "the regular expression is too large"),
    ("a", "g", 2, "the only flag is \"i\""),
    ("a", "ii", 2, "the only flag is \"i\""),
    ("\u{E9}\u{E9}^", "", 4, "\"^\" anchors only as the first character"),
  ]

  @Test func syntaxErrorsNameTheirPosition() {
    for (pattern, flags, offset, message) in Self.errors {
      do {
        _ = try RuleRegex(pattern: pattern, flags: flags)
        Issue.record("/\(pattern)/\(flags) compiled")
      } catch {
        #expect(error.offset == offset, "/\(pattern)/\(flags): \(error.message)")
        #expect(error.message.contains(message), "/\(pattern)/\(flags): \(error.message)")
      }
    }
  }

  @Test func groupsNestAtMostThirtyTwoLevels() throws {
    let allowed = String(repeating: "(", count: 32) + "a" + String(repeating: ")", count: 32)
    #expect(try RuleRegex(pattern: allowed, flags: "").matches("a"))
    let deep = String(repeating: "(", count: 33) + "a" + String(repeating: ")", count: 33)
    #expect(throws: RuleRegex.SyntaxError.self) { try RuleRegex(pattern: deep, flags: "") }
  }

  /// Patterns that make a backtracking matcher take exponential time finish here in one pass:
  /// the test would not terminate otherwise.
  @Test func catastrophicPatternsMatchInLinearTime() throws {
    let input = String(repeating: "a", count: 20_000)
    #expect(try RuleRegex(pattern: "^(a*)*b$", flags: "").matches(input) == false)
    #expect(try RuleRegex(pattern: "^(a|a)*c", flags: "").matches(input) == false)
    #expect(try RuleRegex(pattern: "(a+a+)+b", flags: "").matches(input) == false)
    #expect(try RuleRegex(pattern: "^(a|aa)+$", flags: "").matches(input))
    let bounded = try RuleRegex(pattern: "^(a?){100}a{100}$", flags: "")
    #expect(bounded.matches(String(repeating: "a", count: 100)))
    #expect(bounded.matches(String(repeating: "a", count: 201)) == false)
  }
}
