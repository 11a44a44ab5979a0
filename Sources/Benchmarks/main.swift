let harness = BenchmarkHarness(arguments: CommandLine.arguments)
print(
  "datasync-bench\(harness.isQuick ? " (quick)" : "") — best of 3 rounds, release build expected")

// Memory first, before other cases leave freed memory that allocations would reuse; the engine's
// data stays alive so that the foundations' memory case gets fresh pages too.
let engineData =
  harness.includes("bytes per leaf") ? measureDatasyncEngineResidentBytesPerLeaf() : nil
// The connection cases measure memory too: before the foundations' probe frees its pages.
let connectionData = DatasyncConnectionBenchmarks.run(harness)
// The HTTP cases keep their server and idle streams alive too (memory measured per stream).
let httpData = HTTPServerBenchmarks.run(harness)
// The remote back end's listened locations too, before the server's cases free a database of
// 1M leaves (measured after them, the pages they freed made the figure negative).
let remoteData = RemoteBackEndBenchmarks.runMemory(harness)
// The server's idle streams too; its other cases follow the memory case.
let serveData = DatabaseServerBenchmarks.run(harness)
RemoteBackEndBenchmarks.run(harness)
if harness.includes("bytes per leaf"),
  let bytes = DatasyncFoundationBenchmarks.residentBytesPerLeaf()
{
  harness.report("foundations: resident bytes per leaf at 1M leaves", value: bytes, unit: "bytes")
}
DatasyncFoundationBenchmarks.run(harness)
DatasyncFoundationBenchmarks.runDecoding(harness)
DatasyncRulesBenchmarks.run(harness)
runDatasyncEngineBenchmarks(includes: harness.includes) { name, iterations, body in
  harness.measureExactly(name, iterations: iterations, body)
}
withExtendedLifetime(engineData) {}
withExtendedLifetime(connectionData) {}
withExtendedLifetime(httpData) {}
withExtendedLifetime(serveData) {}
withExtendedLifetime(remoteData) {}
DatasyncStorageBenchmarks.run(harness)
DatasyncStreamsBenchmarks.run(harness)
StreamsCoreBenchmarks.run(harness)
StreamsSchedulerBenchmarks.run(harness)
await StreamsAsyncBenchmarks.run(harness)
