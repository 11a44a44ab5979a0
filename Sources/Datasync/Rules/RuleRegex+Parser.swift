extension RuleRegex {
  /// Parses a pattern into nodes.
  struct Parser {
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
}
