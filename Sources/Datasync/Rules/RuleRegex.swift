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
  struct CharacterClass: Sendable {
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

  indirect enum Node {
    case scalar(Unicode.Scalar)
    case anyScalar
    case set(CharacterClass)
    case sequence([Node])
    case alternatives([Node])
    /// `maximum == nil`: unbounded.
    case repetition(Node, minimum: Int, maximum: Int?)
  }

  enum Instruction: Sendable {
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
  static func lowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
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
}
