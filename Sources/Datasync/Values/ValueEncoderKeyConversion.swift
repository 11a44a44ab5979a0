/// The key conversions of `JSONEncoder.KeyEncodingStrategy`, as `JSONEncoder` performs them.
enum ValueEncoderKeyConversion {
  /// The snake-case form of a key, as `.convertToSnakeCase` writes it.
  ///
  /// Words end before an uppercase letter that follows other letters (`oneTwo` → `one_two`); a
  /// run of uppercase letters is one word, except its last letter when a lowercase letter
  /// follows, which starts the next word (`myURLKey` → `my_url_key`); the first character is
  /// never a word boundary. Words are lowercased and joined by `_`; other characters (digits,
  /// underscores) stay in their word.
  static func snakeCase(_ key: String) -> String {
    guard !key.isEmpty else { return key }
    let scalars = key.unicodeScalars
    var words: [Range<String.Index>] = []
    var wordStart = key.startIndex
    var searchStart = key.index(after: wordStart)
    while let upper = scalars[searchStart...].firstIndex(where: isUppercase) {
      words.append(wordStart..<upper)
      guard let lower = scalars[upper...].firstIndex(where: isLowercase) else {
        wordStart = upper
        break
      }
      if lower == key.index(after: upper) {
        wordStart = upper
      } else {
        let lastCapital = key.index(before: lower)
        words.append(upper..<lastCapital)
        wordStart = lastCapital
      }
      searchStart = scalars.index(after: lower)
    }
    words.append(wordStart..<key.endIndex)
    return words.map { key[$0].lowercased() }.joined(separator: "_")
  }

  private static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .titlecaseLetter: true
    default: false
    }
  }

  private static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .lowercaseLetter
  }
}
