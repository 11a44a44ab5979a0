import Foundation
import Testing

@testable import Datasync

/// One expression, evaluated as the `.validate` rule of `/users/$uid` at `/users/alice` (see
/// ``RulesFixture``), and what it must give.
struct ExpressionCase: Sendable, CustomTestStringConvertible {
  let expression: String
  let expected: RulesFixture.Outcome
  var authenticated = true

  var testDescription: String { expression }

  static func yes(_ expression: String) -> ExpressionCase {
    ExpressionCase(expression: expression, expected: .value(true))
  }

  static func no(_ expression: String) -> ExpressionCase {
    ExpressionCase(expression: expression, expected: .value(false))
  }

  static func fails(_ expression: String, _ message: String) -> ExpressionCase {
    ExpressionCase(expression: expression, expected: .failure(message))
  }

  static func syntax(_ expression: String, column: Int, _ message: String) -> ExpressionCase {
    ExpressionCase(expression: expression, expected: .syntaxError(column: column, message))
  }

  static func anonymous(_ expression: String, _ expected: RulesFixture.Outcome) -> ExpressionCase {
    ExpressionCase(expression: expression, expected: expected, authenticated: false)
  }
}

@Suite struct RuleExpressionTests {
  static let literalsAndEquality: [ExpressionCase] = [
    .yes("true"),
    .no("false"),
    .yes("1 == 1"),
    .yes("1 === 1.0"),
    .yes("'a' == \"a\""),
    .yes("null == null"),
    .no("1 == '1'"),
    .no("true == 'true'"),
    .yes("true != false"),
    .yes("1 !== 2"),
    .yes("'\\u0041' == 'A'"),
    .yes("'it\\'s' == \"it's\""),
    .yes("'\\uD83D\\uDE00' == '\u{1F600}'"),
    .yes("'\\\\' + '\\n' == \"\\\\\\n\""),
    .yes("1.5e3 == 1500"),
    .no("'\u{E9}' == 'e\u{301}'"),
  ]

  static let arithmetic: [ExpressionCase] = [
    .yes("1 + 2 * 3 == 7"),
    .yes("(1 + 2) * 3 == 9"),
    .yes("7 / 2 == 3.5"),
    .yes("6 / 3 == 2"),
    .yes("7 % 3 == 1"),
    .yes("-7 % 3 == -1"),
    .yes("7.5 % 2 == 1.5"),
    .yes("-(-2) == 2"),
    .yes("10 - 2 - 3 == 5"),
    .yes("9223372036854775807 + 1 > 9223372036854775807"),
    .fails("1 / 0 == 1", "division by zero"),
    .fails("1 % 0 == 1", "remainder by zero"),
    .yes("'a' + 1 == 'a1'"),
    .yes("'n' + 1.5 == 'n1.5'"),
    .yes("2.0 + 'x' == '2x'"),
    .yes("'ab' + 'cd' == 'abcd'"),
    .yes("2 < 10"),
    .no("'2' < '10'"),
    .yes("1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 3"),
    .yes("'abc' < 'abd'"),
    .fails("data.child('age').val() < 'x'", "cannot compare a number with a string"),
  ]

  static let logic: [ExpressionCase] = [
    .yes("!false"),
    .yes("!!true"),
    .yes("true || 1 / 0 == 1"),
    .no("false && 1 / 0 == 1"),
    .yes("false || false || true"),
    .yes("true ? 1 == 1 : false"),
    .no("false ? true : 'a' == 'b'"),
    .yes("1 == 1 ? 2 == 2 ? true : false : false"),
    .fails("newData.val() && true", "expected a boolean"),
    .fails("data.child('name').val() ? true : true", "expected a boolean"),
  ]

  static let authentication: [ExpressionCase] = [
    .yes("auth != null"),
    .yes("null != auth && !(auth == null)"),
    .yes("auth.uid == $uid"),
    .yes("auth.provider == 'password'"),
    .yes("auth.token.moderator == true"),
    .yes("auth.token.level >= 3"),
    .yes("auth.token.roles.editor == true"),
    .yes("auth.token.missing == null"),
    .yes("auth.token.email.endsWith('@example.com')"),
    .fails("auth.token.email.host == 'x'", "cannot read \"host\" of a string"),
    .anonymous("auth == null", .value(true)),
    .anonymous("auth.uid == 'alice'", .failure("auth is null")),
    .anonymous("auth == null || auth.uid == 'x'", .value(true)),
    .anonymous("auth.token.moderator == true", .failure("auth is null")),
  ]

  static let variablesAndNow: [ExpressionCase] = [
    .yes("now == 1700000000000"),
    .yes("now > 0 && now - 1000 < now"),
    .yes("$uid == 'alice'"),
    .yes("$uid.length == 5"),
    .yes("root.child('users/' + $uid + '/name').val() == 'Alice'"),
  ]

  static let snapshots: [ExpressionCase] = [
    .yes("data.exists()"),
    .yes("data.child('name').val() == 'Alice'"),
    .yes("newData.child('name').val() == 'Alicia'"),
    .yes("data.child('age').isNumber() && data.child('name').isString()"),
    .yes("data.child('admin').isBoolean() && !data.child('admin').isString()"),
    .yes("data.child('score').isNumber() && data.child('score').val() == 2.5"),
    .yes("data.hasChild('name')"),
    .no("data.hasChild('nickname')"),
    .yes("data.hasChildren()"),
    .no("data.child('name').hasChildren()"),
    .yes("data.hasChildren(['name', 'age'])"),
    .no("data.hasChildren(['name', 'nickname'])"),
    .no("data.child('name').hasChildren(['name'])"),
    .no("data.child('nickname').hasChildren(['name'])"),
    .yes("data.child('name').hasChildren([])"),
    .yes("data.hasChildren([])"),
    .no("data.hasChildren(['nickname', 'name'])"),
    .yes("data.parent().hasChildren(['bob/age', 'alice'])"),
    .no("data.parent().hasChildren(['bob/age', 'alice/nickname'])"),
    .yes("data.hasChildren(['na' + 'me'])"),
    .yes("data.parent().child('bob/name').val() == 'Bob'"),
    .yes("data.parent().hasChild('bob/age')"),
    .yes("root.child('colors').hasChild('blue')"),
    .yes("root.child('colors/' + 'red').exists()"),
    .yes("root.child('rooms/general/members/' + auth.uid).exists()"),
    .yes("root.child('//rooms//general/').child('topic').val() == 'hello world'"),
    .yes("root.child('users' + ('/' + $uid) + '//name/').val() == 'Alice'"),
    .yes("root.child('users/' + $uid + '/' + 'age').val() == 30"),
    .yes("root.child('us' + 'ers/b' + 'ob').hasChild('name')"),
    .yes("data.parent().child('' + 'alice/score').val() == 2.5"),
    .no("root.child('users/' + 7).exists()"),
    .no("root.child('users/' + $uid + 'x').exists()"),
    .yes("root.child('users/' + 'x' + $uid + '/name').val() == null"),
    .yes("root.child('users/' + $uid.replace('li', 'li')).hasChild('name')"),
    .yes("root.child(1 + 2 + '/x').val() == null"),
    .fails(
      "root.child('users/' + data.val()).exists()", "+ joins a string with a string or a number"),
    .fails("root.child('a.b' + $uid).exists()", "the path segment \"a.balice\" is not a valid key"),
    .fails("root.child('/' + '/').exists()", "names no child"),
    .syntax("root.child('a/b.c/' + $uid).exists()", column: 12, "\"b.c\" is not a valid key"),
    .no("data.child('missing').exists()"),
    .yes("data.child('missing').val() == null"),
    .no("data.val() == null"),
    .yes("data.val() != null"),
    .no("data.val() == data.val()"),
    .fails("root.parent().exists()", "the root has no parent"),
    .yes("data.parent().parent().child('colors').exists()"),
    .yes("data.child('name').parent().child('age').val() == 30"),
    .yes("newData.parent().child('alice/age').val() == 31"),
    .yes("data.child('age').val() + 1 == newData.child('age').val()"),
    .no("data.child(auth.uid).exists()"),
    .fails("data.child($uid + '.x').exists()", "is not a valid key"),
    .fails(
      "data.child(data.child('age').val()).exists()", "a path must be a string, found a number"),
    .syntax("data.child(1 + 1).exists()", column: 12, "a path must be a string, not a number"),
    .fails("data.child('name').val().length > data.child('age').val().length", "needs a string"),
  ]

  static let strings: [ExpressionCase] = [
    .yes("'hello'.length == 5"),
    .yes("'h\u{E9}llo'.length == 5"),
    .yes("'\u{1F600}'.length == 2"),
    .yes("'hello world'.contains('o w')"),
    .yes("'hello'.contains('')"),
    .no("'hello'.contains('low')"),
    .yes("'abababc'.contains('ababc')"),
    .yes("'hello'.beginsWith('he') && 'hello'.endsWith('llo')"),
    .no("'hello'.beginsWith('lo')"),
    .no("'lo'.endsWith('hello')"),
    .yes("'a-b-c'.replace('-', '+') == 'a+b+c'"),
    .yes("'aaa'.replace('aa', 'b') == 'ba'"),
    .yes("'abc'.replace('', 'x') == 'abc'"),
    .yes("'MiXeD'.toLowerCase() == 'mixed' && 'MiXeD'.toUpperCase() == 'MIXED'"),
    .yes("data.child('name').val().toLowerCase() == 'alice'"),
    .yes("'2023-01-05'.matches(/^\\d{4}-\\d{2}-\\d{2}$/)"),
    .yes("'ABC'.matches(/^abc$/i)"),
    .no("'abc'.matches(/^abd/)"),
    .yes("'ba'.matches(/a/)"),
    .no("'ba'.matches(/^a/)"),
    .yes("'ac'.matches(/a|bc/) && 'bc'.matches(/^(a|bc)$/)"),
    .yes("newData.child('name').val().matches(/^[A-Z][a-z]+$/)"),
    .yes("'user@example.com'.matches(/^[A-Z0-9._%+-]+@[A-Z0-9.-]+\\.[A-Z]{2,4}$/i)"),
  ]

  static let syntaxErrors: [ExpressionCase] = [
    .syntax("auth.uid ==", column: 12, "expected an expression, found the end of the expression"),
    .syntax("data.foo()", column: 6, "unknown snapshot method \"foo\""),
    .syntax("data.exists", column: 6, "call it as exists()"),
    .syntax("'abc'.length()", column: 7, "length is a property"),
    .syntax("data == null", column: 6, "cannot compare a snapshot"),
    .syntax("$other == 'x'", column: 1, "unknown variable $other"),
    .syntax("1 + true == 2", column: 3, "+ adds numbers or joins strings, not a boolean"),
    .syntax("'a' - 1 == 0", column: 5, "- needs numbers, not a string"),
    .syntax("auth.name == 'x'", column: 6, "auth has no member \"name\""),
    .syntax("newData.val().foo == 1", column: 15, "read a child with child('foo')"),
    .syntax("'abc'.matches('a')", column: 15, "needs a regular expression literal"),
    .syntax("'a'.matches(/[a/)", column: 13, "the regular expression has no closing \"/\""),
    .syntax("'a'.matches(/a{3,1}/)", column: 15, "the repetition {3,1} is out of order"),
    .syntax("'a'.matches(/a**/)", column: 16, "nothing to repeat"),
    .syntax("'a'.matches(/a/g)", column: 16, "the only flag is \"i\""),
    .syntax("(1 == 1", column: 8, "expected \")\" to close the parenthesis"),
    .syntax("1 = 1", column: 3, "compare with \"==\""),
    .syntax("true & false", column: 6, "the logical operators are \"&&\" and \"||\""),
    .syntax("'unterminated == 1", column: 1, "the string has no closing quote"),
    .syntax("'a\\q' == 1", column: 3, "unknown escape \\q in the string"),
    .syntax("'\\u12' == 1", column: 2, "expected four hexadecimal digits after \\u"),
    .syntax("'\\uD83D' == 'a'", column: 2, "the escape \\u is a lone surrogate"),
    .syntax("'\\uD83D\\u0041' == 'a'", column: 2, "a high surrogate must be followed by a low"),
    .syntax("1 == 1 1", column: 8, "expected an operator or the end of the expression"),
    .syntax("'x'", column: 1, "a rule must be a boolean expression, this one is a string"),
    .syntax("data.child().exists()", column: 12, "child() needs a path argument"),
    .syntax("data.child('a.b').exists()", column: 12, "\"a.b\" is not a valid key"),
    .syntax("data.hasChildren('a')", column: 18, "an array of paths"),
    .syntax("!5", column: 1, "! needs a boolean, not a number"),
    .syntax("foo == 1", column: 1, "unknown name \"foo\""),
    .syntax("true && 'x'", column: 6, "the operands of && must be booleans"),
    .syntax("1 < 'a'", column: 3, "< cannot compare a number with a string"),
    .syntax("auth.uid()", column: 6, "auth.uid is not a method"),
    .syntax("data ? true : false", column: 6, "the condition of ?: must be a boolean"),
    .syntax(
      "(true ? data : 'x').exists()", column: 7, "a snapshot or auth may only meet its own kind"),
    .syntax("[1] == 1", column: 1, "an array is only allowed as the argument of hasChildren()"),
    .syntax("1 == 2 #", column: 8, "unexpected character \"#\""),
    .syntax("'\u{E9}\u{E9}' == 1 +", column: 12, "expected an expression"),
  ]

  static let allCases =
    literalsAndEquality + arithmetic + logic + authentication + variablesAndNow + snapshots
    + strings + syntaxErrors

  @Test func theTableHasAtLeastSixtyCases() {
    #expect(Self.allCases.count >= 60)
  }

  @Test(arguments: allCases)
  func expression(_ testCase: ExpressionCase) {
    let outcome = RulesFixture.evaluate(
      testCase.expression, auth: testCase.authenticated ? RulesFixture.alice : nil)
    #expect(outcome.matches(testCase.expected), "got \(outcome)")
  }

  @Test func uidsThatAreNotOneKeyJoinPathsAsText() {
    let expression = "root.child('users/' + auth.uid).val() == 'Alice'"
    #expect(
      RulesFixture.evaluate(expression, auth: DatasyncAuthentication(uid: "alice/name"))
        == .value(true))
    #expect(
      RulesFixture.evaluate(expression, auth: DatasyncAuthentication(uid: "al.ice")).matches(
        .failure("the path segment \"al.ice\" is not a valid key")))
    #expect(
      RulesFixture.evaluate(
        "root.child('users/' + auth.uid + 'ce/name').val() == 'Alice'",
        auth: DatasyncAuthentication(uid: "ali")) == .value(true))
  }

  @Test func newDataIsNotAvailableInReadRules() {
    let error = rulesError(#"{"rules": {".read": "newData.exists()"}}"#)
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains("\"/.read\" is invalid at column 1") == true)
    #expect(error?.message.contains("newData is not available in .read rules") == true)
  }

  @Test func expressionsNestMoreThanTheLimitFailToParse() {
    let deep = String(repeating: "(", count: 65) + "true" + String(repeating: ")", count: 65)
    let error = rulesError(RulesFixture.document(validating: deep))
    #expect(error?.message.contains("nested more than 64 levels") == true)
    let allowed = String(repeating: "(", count: 60) + "true" + String(repeating: ")", count: 60)
    #expect(RulesFixture.evaluate(allowed) == .value(true))
    let negations = String(repeating: "!", count: 66) + "true"
    #expect(RulesFixture.evaluate(negations).matches(.syntaxError(column: 65, "nested more than")))
    let sum = (0..<70).map { _ in "1" }.joined(separator: " + ") + " == 70"
    #expect(RulesFixture.evaluate(sum).matches(.syntaxError(column: 255, "nested more than")))
    let conjunction = (0..<500).map { _ in "true" }.joined(separator: " && ")
    #expect(RulesFixture.evaluate(conjunction) == .value(true))
  }

  @Test func snapshotChainsLongerThanTheLimitFailToParse() {
    let allowed = "data" + String(repeating: ".child('a').parent()", count: 16) + ".exists()"
    #expect(RulesFixture.evaluate(allowed) == .value(true))
    let tooLong = "data" + String(repeating: ".child('a')", count: 33) + ".exists()"
    #expect(
      RulesFixture.evaluate(tooLong).matches(
        .syntaxError(column: 358, "longer than 32 calls")))
  }

  @Test func childPathsDeeperThanThirtyTwoLevelsFail() {
    let path = (0..<31).map { _ in "a" }.joined(separator: "/")
    #expect(RulesFixture.evaluate("data.child('\(path)').exists()").matches(.failure("deeper")))
    #expect(RulesFixture.evaluate("root.child('\(path)').exists()") == .value(false))
  }

  @Test func expressionsLongerThanTheLimitFailToParse() {
    let long = "'" + String(repeating: "a", count: RuleParser.maximumLength) + "' == 'a'"
    #expect(
      RulesFixture.evaluate(long).matches(
        .syntaxError(column: 1, "more than the limit of \(RuleParser.maximumLength)")))
  }
}
