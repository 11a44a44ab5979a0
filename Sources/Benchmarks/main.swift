let harness = BenchmarkHarness(arguments: CommandLine.arguments)
print(
  "datasync-bench\(harness.isQuick ? " (quick)" : "") — best of 3 rounds, release build expected")
StreamsCoreBenchmarks.run(harness)
StreamsSchedulerBenchmarks.run(harness)
await StreamsAsyncBenchmarks.run(harness)
DatasyncStreamsBenchmarks.run(harness)
