import Foundation

do {
  switch try parseCommand(Array(CommandLine.arguments.dropFirst())) {
  case .help(let topic):
    print(usage(for: topic))
  case .demo(let options):
    let succeeded = try await ChatDemo(options: options).run()
    exit(succeeded ? 0 : 1)
  case .serve(let options):
    exit(try await ServeCommand(options: options).run())
  case .remote(let options) where options.action == .watch:
    exit(try await WatchCommand(options: options).run())
  case .remote(let options):
    exit(try await RequestCommand(options: options).run())
  }
} catch let error as UsageError {
  FileHandle.standardError.write(Data("datasync: error: \(error)\n".utf8))
  exit(2)
} catch {
  FileHandle.standardError.write(Data("datasync: error: \(error)\n".utf8))
  exit(1)
}
