import Testing

/// `datasync --help` describes every command; `datasync <command> --help` (or `-h`, or
/// `datasync help <command>`) describes that command alone.
@Suite struct HelpTests {
  /// Each command, the options its help describes, and an option of another command that it
  /// leaves out.
  static let commands: [(name: String, options: [String], foreign: String)] = [
    ("demo", ["--writers", "--messages", "--seconds", "--help"], "--port"),
    (
      "serve",
      [
        "--host", "--port", "--data", "--rules", "--open", "--tokens", "--admin-token", "--verbose",
      ],
      "--writers"
    ),
    ("get", ["--token", "limitToFirst", "?ns="], "--port"),
    ("set", ["--token"], "--seconds"),
    ("merge", ["--token"], "--seconds"),
    ("push", ["--token"], "--rules"),
    ("delete", ["--token"], "--data"),
    ("watch", ["--token"], "--writers"),
  ]

  @Test func theProgramsHelpNamesEveryCommandAndOption() throws {
    let run = try runDatasync(["--help"])
    #expect(run.status == 0)
    #expect(run.error.isEmpty)
    for command in Self.commands {
      #expect(run.output.contains("\n  \(command.name) "), "\(command.name)")
      for option in command.options {
        #expect(run.output.contains(option), "\(option)")
      }
    }
    #expect(run.output.contains("'datasync <command> --help' describes one command."))
    #expect(try runDatasync(["help"]).output == run.output)
    #expect(try runDatasync(["-h"]).output == run.output)
  }

  @Test(arguments: commands.map(\.name))
  func eachCommandsHelpDescribesThatCommandAlone(name: String) throws {
    let command = try #require(Self.commands.first { $0.name == name })
    let run = try runDatasync([name, "--help"])
    #expect(run.status == 0)
    #expect(run.error.isEmpty)
    #expect(run.output.hasPrefix("USAGE: datasync \(name) "))
    for option in command.options {
      #expect(run.output.contains(option), "\(option)")
    }
    #expect(!run.output.contains(command.foreign))
    #expect(run.output.contains("Example: datasync \(name) "))
    #expect(try runDatasync([name, "-h"]).output == run.output)
    #expect(try runDatasync(["help", name]).output == run.output)
  }

  /// A usage error points at the help of the command it was made with.
  @Test(arguments: [
    (["serve", "--bogus"], "'datasync serve --help'"),
    (["demo", "--speed", "3"], "'datasync demo --help'"),
    (["push", "http://127.0.0.1:9/a", "1", "--verbose"], "'datasync push --help'"),
    (["help", "launch"], "no command named 'launch'"),
  ])
  func aUsageErrorPointsAtTheRightHelp(arguments: [String], hint: String) throws {
    let run = try runDatasync(arguments)
    #expect(run.status == 2)
    #expect(run.output.isEmpty)
    #expect(run.error.hasPrefix("datasync: error: "))
    #expect(run.error.contains(hint), "\(run.error)")
  }
}
