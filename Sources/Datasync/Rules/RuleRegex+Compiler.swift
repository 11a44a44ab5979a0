extension RuleRegex {
  /// Turns nodes into instructions.
  struct Compiler {
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
