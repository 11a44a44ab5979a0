/// Security rules: who may read and write where, and what written data must look like.
///
/// Rules are a JSON document whose `"rules"` object mirrors the tree. At each location,
/// `.read`, `.write` and `.validate` are expressions (strings) or booleans; other keys name
/// children, and one `$name` key per location matches every other child, capturing its key in
/// the variable `$name`:
///
/// ```swift
/// let rules = try DatasyncRules(json: """
///   {
///     "rules": {
///       "users": {
///         ".read": "auth != null",
///         "$uid": {
///           ".write": "auth != null && auth.uid == $uid",
///           ".validate": "newData.hasChildren(['name'])",
///           "name": { ".validate": "newData.isString() && newData.val().length <= 40" }
///         }
///       }
///     }
///   }
///   """)
/// ```
///
/// Semantics (those of the hosted realtime database):
/// - `.read` and `.write` cascade: walking from the root down to the location accessed, the
///   first rule that evaluates to true grants access to the location and everything below it;
///   a rule below cannot take it back. Without a granting rule, access is denied.
/// - Rules are not filters: reading a location needs a grant at that location or above, even
///   when every child is readable on its own.
/// - A write must also pass every `.validate` rule that applies to its new data: those of the
///   locations it writes, of their ancestors and of their descendants in the new data (each with
///   `newData` the merged result there). They do not cascade: all of them must be true. A
///   `.validate` rule is not evaluated where the new data is null, so deletions are checked by
///   `.write` rules only.
/// - In expressions: `auth` (see ``DatasyncAuthentication``), `now` (the back end's clock, in
///   milliseconds since 1970), `root` (the tree before the operation), `data` (the location
///   before the operation), `newData` (after it; not in `.read` rules), `$` variables, literals
///   (numbers, `'…'` or `"…"` strings, `true`, `false`, `null`), `! && || ?:`, `== != === !==`
///   (all strict: no conversions), `< <= > >=`, `+ - * / %` (and unary `-`), parentheses and
///   member access. Snapshots have `child(path)` (a path may contain `/`), `parent()`,
///   `hasChild(path)`, `hasChildren()` (any child) and `hasChildren(['a', 'b'])`, `exists()`,
///   `val()`, `isNumber()`, `isString()`, `isBoolean()`; strings have `length`, `contains()`,
///   `beginsWith()`, `endsWith()`, `replace()` (every occurrence), `toLowerCase()`,
///   `toUpperCase()` and `matches(/regex/i)` (a subset of regular expressions, matched in linear
///   time). `val()` of a location with children is a value equal to nothing: read children with
///   `child()`.
/// - An expression that fails while evaluated (a member of null such as `auth.uid` when
///   unauthenticated, a type mismatch, `parent()` of the root) is false, never a crash.
///
/// The document may contain `//` and `/* */` comments. `.indexOn` is accepted (a child name or
/// an array of them) and has no effect: the embedded engine orders children without indexes.
///
/// Rules are parsed and type-checked once, here; an expression is at most 16,384 UTF-8 bytes,
/// nests at most 64 levels and chains at most 32 snapshot methods, so that evaluating it takes
/// bounded time (it has no loops). A regular expression compiles to at most 2,000 instructions
/// (repetitions expanded, counts at most 1,000) and is matched without backtracking, in time
/// proportional to its instructions times the length of the string. A write evaluates only the rules on the paths it writes,
/// their ancestors and the descendants of its new data, whatever the size of the database.
public struct DatasyncRules: Sendable, CustomStringConvertible {
  /// The compiled rules.
  let root: RuleNode
  /// The document the rules were created from.
  private let source: String

  /// Parses and compiles a rules document.
  ///
  /// - Parameter json: The document, `{"rules": {…}}`.
  /// - Throws: ``WebcomError`` with code `invalidArgument` naming the culprit: for an invalid
  ///   expression, the rule's path (such as `/users/$uid/.write`), the column in the expression
  ///   and what was expected; otherwise the path or the line and column in the document, and
  ///   what is wrong.
  public init(json: String) throws(WebcomError) {
    let document = try RulesDocumentReader.read(json)
    root = try RuleNode.compile(document, text: json)
    source = json
  }

  /// Everyone may read and write everything.
  public static let open = try! DatasyncRules(
    json: #"{"rules": {".read": true, ".write": true}}"#)

  /// Every authenticated client may read and write everything; others nothing.
  public static let authenticated = try! DatasyncRules(
    json: #"{"rules": {".read": "auth != null", ".write": "auth != null"}}"#)

  /// The document the rules were created from.
  public var description: String { source }
}
