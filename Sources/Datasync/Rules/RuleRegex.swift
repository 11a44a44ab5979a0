/// A regular expression of the rules language (`/pattern/flags`), matched in linear time.
///
/// The syntax is the hosted service's subset: literal characters; `.` (any character); `\d \w
/// \s` and their negations `\D \W \S`; `\` before any other non-alphanumeric character (and
/// `\n \r \t \f \v`, and `\u` with four hexadecimal digits) for that character; classes `[abc]`, ranges `[a-z]`, negated
/// classes `[^0-9]`; groups `( )`; alternatives `a|b`; repetitions `*`, `+`, `?`, `{n}`, `{n,}`,
/// `{n,m}`; `^` only as the pattern's first character and `$` only as its last. Other special
/// characters (`( ) [ ] { } * + ? | ^ $ \ /`) must be escaped to stand for themselves. The only
/// flag is `i` (ignore case, with simple one-to-one case mappings). A pattern matches when it
/// matches any part of the string (unless anchored), on Unicode scalars.
///
/// Bounds: a pattern compiles to at most ``maximumInstructions`` instructions (a repetition
/// `{n,m}` counts its copies; counts are at most ``maximumRepetition``), and matching simulates
/// every alternative at once (a Pike machine without backtracking): the time is at most
/// proportional to the number of instructions times the length of the string, whatever the
/// pattern, so `(a*)*b` cannot be catastrophic.
struct RuleRegex: Sendable {
  /// The most instructions a pattern compiles to.
  static let maximumInstructions = 2_000
  /// The largest count of a `{n,m}` repetition.
  static let maximumRepetition = 1_000

  /// A syntax error at a UTF-8 offset of the pattern.
  struct SyntaxError: Error {
    let offset: Int
    let message: String
  }

  /// A set of scalars: ranges of scalar values, possibly negated.
  private struct CharacterClass: Sendable {
    var ranges: [ClosedRange<UInt32>] = []
    var isNegated = false

    func contains(_ scalar: Unicode.Scalar) -> Bool {
      ranges.contains { $0.contains(scalar.value) } != isNegated
    }

    static let digits = CharacterClass(ranges: [0x30...0x39])
    static let wordCharacters = CharacterClass(ranges: [
      0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A,
    ])
    static let whitespace = CharacterClass(ranges: [
      0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
      0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ])

    /// The ranges of every scalar value not in `ranges` (which must be sorted and disjoint).
    static func complement(of ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
      var result: [ClosedRange<UInt32>] = []
      var next: UInt32 = 0
      for range in ranges {
        if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
        next = range.upperBound + 1
      }
      if next <= 0x10FFFF { result.append(next...0x10FFFF) }
      return result
    }
  }

  private indirect enum Node {
    case scalar(Unicode.Scalar)
    case anyScalar
    case set(CharacterClass)
    case sequence([Node])
    case alternatives([Node])
    /// `maximum == nil`: unbounded.
    case repetition(Node, minimum: Int, maximum: Int?)
  }

  private enum Instruction: Sendable {
    /// Consumes this scalar (folded to lower case when ignoring case).
    case scalar(Unicode.Scalar)
    case anyScalar
    /// Consumes a scalar of the class at this index.
    case set(Int)
    /// Continues at both targets.
    case split(Int, Int)
    case jump(Int)
    case match
  }

  private let program: [Instruction]
  private let classes: [CharacterClass]
  private let isAnchoredAtStart: Bool
  private let isAnchoredAtEnd: Bool
  private let ignoresCase: Bool

  /// Compiles a pattern.
  ///
  /// - Parameters:
  ///   - pattern: The text between the slashes.
  ///   - flags: The letters after the closing slash.
  /// - Throws: ``SyntaxError`` naming the offending position of the pattern.
  init(pattern: String, flags: String) throws(SyntaxError) {
    var ignoresCase = false
    for flag in flags.unicodeScalars {
      guard flag == "i", !ignoresCase else {
        throw SyntaxError(
          offset: pattern.utf8.count + 1,
          message: "unsupported regular expression flag \"\(flag)\": the only flag is \"i\"")
      }
      ignoresCase = true
    }
    var parser = Parser(pattern)
    let (node, anchoredAtStart, anchoredAtEnd) = try parser.parsePattern()
    var compiler = Compiler(ignoresCase: ignoresCase)
    try compiler.emit(node)
    try compiler.append(.match)
    program = compiler.program
    classes = compiler.classes
    isAnchoredAtStart = anchoredAtStart
    isAnchoredAtEnd = anchoredAtEnd
    self.ignoresCase = ignoresCase
  }

  /// Whether the pattern matches `string` (any part of it, unless anchored).
  func matches(_ string: String) -> Bool {
    var current = ThreadSet(capacity: program.count)
    var next = ThreadSet(capacity: program.count)
    var pending: [Int] = []
    let scalars = string.unicodeScalars
    var index = scalars.startIndex
    if addThread(0, to: &current, atEnd: index == scalars.endIndex, pending: &pending) {
      return true
    }
    while index != scalars.endIndex {
      let scalar = scalars[index]
      let folded = ignoresCase ? Self.lowercase(scalar) : scalar
      scalars.formIndex(after: &index)
      let atEnd = index == scalars.endIndex
      next.removeAll()
      for position in 0..<current.count {
        let pc = current.element(at: position)
        let consumes: Bool
        switch program[pc] {
        case .scalar(let expected): consumes = folded == expected
        case .anyScalar: consumes = true
        case .set(let classIndex): consumes = classContains(classIndex, scalar)
        case .split, .jump, .match: consumes = false
        }
        if consumes, addThread(pc + 1, to: &next, atEnd: atEnd, pending: &pending) { return true }
      }
      if !isAnchoredAtStart, addThread(0, to: &next, atEnd: atEnd, pending: &pending) {
        return true
      }
      if next.count == 0 { return false }
      swap(&current, &next)
    }
    return false
  }

  /// Adds the thread at `pc` and those it reaches without consuming; whether one of them matches.
  private func addThread(
    _ pc: Int, to threads: inout ThreadSet, atEnd: Bool, pending: inout [Int]
  ) -> Bool {
    pending.append(pc)
    while let pc = pending.popLast() {
      guard threads.insert(pc) else { continue }
      switch program[pc] {
      case .jump(let target):
        pending.append(target)
      case .split(let first, let second):
        pending.append(second)
        pending.append(first)
      case .match:
        if atEnd || !isAnchoredAtEnd {
          pending.removeAll(keepingCapacity: true)
          return true
        }
      case .scalar, .anyScalar, .set:
        break
      }
    }
    return false
  }

  private func classContains(_ index: Int, _ scalar: Unicode.Scalar) -> Bool {
    let set = classes[index]
    if set.contains(scalar) { return true }
    guard ignoresCase else { return false }
    return set.contains(Self.lowercase(scalar)) || set.contains(Self.uppercase(scalar))
  }

  /// The simple lower-case mapping of a scalar (itself when it has none or several scalars).
  private static func lowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if scalar.isASCII {
      guard (0x41...0x5A).contains(scalar.value) else { return scalar }
      return Unicode.Scalar(scalar.value + 0x20)!
    }
    let mapped = scalar.properties.lowercaseMapping.unicodeScalars
    return mapped.count == 1 ? mapped.first! : scalar
  }

  /// The simple upper-case mapping of a scalar (itself when it has none or several scalars).
  private static func uppercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if scalar.isASCII {
      guard (0x61...0x7A).contains(scalar.value) else { return scalar }
      return Unicode.Scalar(scalar.value - 0x20)!
    }
    let mapped = scalar.properties.uppercaseMapping.unicodeScalars
    return mapped.count == 1 ? mapped.first! : scalar
  }

  /// A set of instruction indices with O(1) insertion, membership and clearing.
  private struct ThreadSet {
    private var dense: [Int]
    private var sparse: [Int]
    private(set) var count = 0

    init(capacity: Int) {
      dense = [Int](repeating: 0, count: capacity)
      sparse = [Int](repeating: 0, count: capacity)
    }

    func element(at position: Int) -> Int { dense[position] }

    /// Inserts `value`; whether it was absent.
    mutating func insert(_ value: Int) -> Bool {
      let slot = sparse[value]
      if slot < count && dense[slot] == value { return false }
      sparse[value] = count
      dense[count] = value
      count += 1
      return true
    }

    mutating func removeAll() {
      count = 0
    }
  }

  /// Parses a pattern into nodes.
  private struct Parser {
    private let scalars: [Unicode.Scalar]
    /// The UTF-8 offset of each scalar, and of the end.
    private let offsets: [Int]
    private var position = 0
    private var depth = 0

    init(_ pattern: String) {
      scalars = Array(pattern.unicodeScalars)
      var offsets: [Int] = []
      var offset = 0
      for scalar in scalars {
        offsets.append(offset)
        offset += UTF8.width(scalar)
      }
      offsets.append(offset)
      self.offsets = offsets
    }

    private func error(_ message: String, at position: Int? = nil) -> SyntaxError {
      SyntaxError(offset: offsets[min(position ?? self.position, scalars.count)], message: message)
    }

    private var current: Unicode.Scalar? {
      position < scalars.count ? scalars[position] : nil
    }

    mutating func parsePattern() throws(SyntaxError) -> (Node, Bool, Bool) {
      var anchoredAtStart = false
      if current == "^" {
        anchoredAtStart = true
        position += 1
      }
      let node = try parseAlternatives()
      var anchoredAtEnd = false
      if current == "$" && position == scalars.count - 1 {
        anchoredAtEnd = true
        position += 1
      }
      if let scalar = current {
        switch scalar {
        case ")": throw error("unbalanced \")\": no group to close")
        case "$": throw error("\"$\" anchors only as the last character; escape it as \\$")
        default: throw error("unexpected \(WebcomKey.quoted(String(scalar)))")
        }
      }
      return (node, anchoredAtStart, anchoredAtEnd)
    }

    private mutating func parseAlternatives() throws(SyntaxError) -> Node {
      var alternatives = [try parseSequence()]
      while current == "|" {
        position += 1
        alternatives.append(try parseSequence())
      }
      return alternatives.count == 1 ? alternatives[0] : .alternatives(alternatives)
    }

    private mutating func parseSequence() throws(SyntaxError) -> Node {
      var nodes: [Node] = []
      while let scalar = current, scalar != "|", scalar != ")" {
        if scalar == "$" && position == scalars.count - 1 { break }
        var node = try parseAtom()
        if let (minimum, maximum) = try parseQuantifier() {
          node = .repetition(node, minimum: minimum, maximum: maximum)
        }
        if let scalar = current, "*+?{".unicodeScalars.contains(scalar) {
          throw error("nothing to repeat before \(WebcomKey.quoted(String(scalar)))")
        }
        nodes.append(node)
      }
      return nodes.count == 1 ? nodes[0] : .sequence(nodes)
    }

    private mutating func parseAtom() throws(SyntaxError) -> Node {
      let start = position
      let scalar = scalars[position]
      position += 1
      switch scalar {
      case ".":
        return .anyScalar
      case "(":
        depth += 1
        guard depth <= 32 else { throw error("groups are nested more than 32 levels", at: start) }
        if current == "?" { throw error("\"(?\" groups are not supported") }
        let node = try parseAlternatives()
        guard current == ")" else { throw error("expected \")\" to close the group", at: start) }
        position += 1
        depth -= 1
        return node
      case "[":
        return .set(try parseClass(start: start))
      case "\\":
        return try parseEscape()
      case "*", "+", "?", "{":
        throw error("nothing to repeat before \(WebcomKey.quoted(String(scalar)))", at: start)
      case "^":
        throw error("\"^\" anchors only as the first character; escape it as \\^", at: start)
      case "$":
        throw error("\"$\" anchors only as the last character; escape it as \\$", at: start)
      case "]", "}", "/":
        throw error(
          "\(WebcomKey.quoted(String(scalar))) must be escaped to match itself", at: start)
      default:
        return .scalar(scalar)
      }
    }

    /// Parses what follows a `\`.
    private mutating func parseEscape() throws(SyntaxError) -> Node {
      guard let scalar = current else {
        throw error("the pattern ends with a lone \"\\\"", at: position - 1)
      }
      let start = position - 1
      position += 1
      switch scalar {
      case "d": return .set(.digits)
      case "D": return .set(CharacterClass(ranges: CharacterClass.digits.ranges, isNegated: true))
      case "w": return .set(.wordCharacters)
      case "W":
        return .set(CharacterClass(ranges: CharacterClass.wordCharacters.ranges, isNegated: true))
      case "s": return .set(.whitespace)
      case "S":
        return .set(CharacterClass(ranges: CharacterClass.whitespace.ranges, isNegated: true))
      case "n": return .scalar("\n")
      case "r": return .scalar("\r")
      case "t": return .scalar("\t")
      case "f": return .scalar("\u{C}")
      case "v": return .scalar("\u{B}")
      case "u":
        guard position + 4 <= scalars.count,
          scalars[position..<(position + 4)].allSatisfy(\.isASCII),
          let code = RuleLexer.hexadecimalValue(
            of: scalars[position..<(position + 4)].map { UInt8($0.value) }),
          let value = Unicode.Scalar(code)
        else { throw error("expected four hexadecimal digits after \\u", at: start) }
        position += 4
        return .scalar(value)
      default:
        guard !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) else {
          throw error("unsupported escape \\\(scalar)", at: start)
        }
        return .scalar(scalar)
      }
    }

    private mutating func parseClass(start: Int) throws(SyntaxError) -> CharacterClass {
      var set = CharacterClass()
      if current == "^" {
        set.isNegated = true
        position += 1
      }
      var isFirst = true
      while true {
        guard let scalar = current else {
          throw error("expected \"]\" to close the character class", at: start)
        }
        if scalar == "]" {
          guard !isFirst else { throw error("a character class may not be empty", at: start) }
          position += 1
          return set
        }
        isFirst = false
        let lower = try parseClassMember()
        guard case .scalar(let low) = lower else {
          if case .set(let shorthand) = lower {
            set.ranges +=
              shorthand.isNegated
              ? CharacterClass.complement(of: shorthand.ranges) : shorthand.ranges
          }
          continue
        }
        if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
          let dash = position
          position += 1
          guard case .scalar(let high) = try parseClassMember() else {
            throw error("a range must end with a character", at: dash)
          }
          guard low.value <= high.value else {
            throw error("the range \(low)-\(high) is out of order", at: dash)
          }
          set.ranges.append(low.value...high.value)
        } else {
          set.ranges.append(low.value...low.value)
        }
      }
    }

    private mutating func parseClassMember() throws(SyntaxError) -> Node {
      let scalar = scalars[position]
      position += 1
      if scalar == "\\" { return try parseEscape() }
      if scalar == "[" { throw error("\"[\" must be escaped inside a class", at: position - 1) }
      return .scalar(scalar)
    }

    /// Parses `*`, `+`, `?` or `{n}`, `{n,}`, `{n,m}` if present.
    private mutating func parseQuantifier() throws(SyntaxError) -> (Int, Int?)? {
      guard let scalar = current else { return nil }
      switch scalar {
      case "*":
        position += 1
        return (0, nil)
      case "+":
        position += 1
        return (1, nil)
      case "?":
        position += 1
        return (0, 1)
      case "{":
        let start = position
        position += 1
        let minimum = try parseCount(start: start)
        var maximum: Int? = minimum
        if current == "," {
          position += 1
          maximum = current == "}" ? nil : try parseCount(start: start)
        }
        guard current == "}" else {
          throw error("expected \"}\" to close the repetition", at: start)
        }
        position += 1
        if let maximum, maximum < minimum {
          throw error("the repetition {\(minimum),\(maximum)} is out of order", at: start)
        }
        return (minimum, maximum)
      default:
        return nil
      }
    }

    private mutating func parseCount(start: Int) throws(SyntaxError) -> Int {
      var count = 0
      var digits = 0
      while let scalar = current, ("0"..."9").contains(scalar) {
        count = count * 10 + Int(scalar.value - 0x30)
        digits += 1
        position += 1
        guard count <= RuleRegex.maximumRepetition else {
          throw error(
            "a repetition count is at most \(RuleRegex.maximumRepetition)", at: start)
        }
      }
      guard digits > 0 else { throw error("expected a repetition count", at: start) }
      return count
    }
  }

  /// Turns nodes into instructions.
  private struct Compiler {
    let ignoresCase: Bool
    var program: [Instruction] = []
    var classes: [CharacterClass] = []

    init(ignoresCase: Bool) {
      self.ignoresCase = ignoresCase
    }

    mutating func append(_ instruction: Instruction) throws(SyntaxError) {
      guard program.count < RuleRegex.maximumInstructions else {
        throw SyntaxError(
          offset: 0,
          message: "the regular expression is too large: more than "
            + "\(RuleRegex.maximumInstructions) instructions once its repetitions are expanded")
      }
      program.append(instruction)
    }

    mutating func emit(_ node: Node) throws(SyntaxError) {
      switch node {
      case .scalar(let scalar):
        try append(.scalar(ignoresCase ? RuleRegex.lowercase(scalar) : scalar))
      case .anyScalar:
        try append(.anyScalar)
      case .set(let set):
        classes.append(set)
        try append(.set(classes.count - 1))
      case .sequence(let nodes):
        for node in nodes { try emit(node) }
      case .alternatives(let nodes):
        var jumpsToEnd: [Int] = []
        for node in nodes.dropLast() {
          let split = program.count
          try append(.split(split + 1, 0))
          try emit(node)
          jumpsToEnd.append(program.count)
          try append(.jump(0))
          program[split] = .split(split + 1, program.count)
        }
        try emit(nodes[nodes.count - 1])
        for jump in jumpsToEnd { program[jump] = .jump(program.count) }
      case .repetition(let node, let minimum, let maximum):
        for _ in 0..<minimum { try emit(node) }
        guard let maximum else {
          let loop = program.count
          try append(.split(loop + 1, 0))
          try emit(node)
          try append(.jump(loop))
          program[loop] = .split(loop + 1, program.count)
          return
        }
        var splits: [Int] = []
        for _ in minimum..<maximum {
          splits.append(program.count)
          try append(.split(program.count + 1, 0))
          try emit(node)
        }
        for split in splits { program[split] = .split(split + 1, program.count) }
      }
    }
  }
}
