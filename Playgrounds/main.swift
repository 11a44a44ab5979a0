import Foundation

let arguments = CommandLine.arguments.dropFirst()
if let name = arguments.first {
  guard let walkthrough = walkthroughs.first(where: { $0.name == name }) else {
    FileHandle.standardError.write(
      Data(
        "Playgrounds: error: no walkthrough named '\(name)' (run without arguments to list them)\n"
          .utf8))
    exit(2)
  }
  do {
    try await walkthrough.run(output: WalkthroughOutput(echoes: true))
  } catch {
    FileHandle.standardError.write(Data("Playgrounds: error: \(error)\n".utf8))
    exit(1)
  }
} else {
  print("Walkthroughs (swift run Playgrounds <name>):")
  for walkthrough in walkthroughs {
    print(
      "  \(walkthrough.name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(walkthrough.summary)"
    )
  }
}
