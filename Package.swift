// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DatasyncStreams",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Streams", targets: ["Streams"]),
    .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
    .library(name: "Datasync", targets: ["Datasync"]),
    .library(name: "DatasyncStreams", targets: ["DatasyncStreams"]),
    .library(name: "DatasyncServer", targets: ["DatasyncServer"]),
    .executable(name: "datasync", targets: ["datasync"]),
    .executable(name: "datasync-bench", targets: ["Benchmarks"]),
    .executable(name: "Playgrounds", targets: ["Playgrounds"]),
  ],
  targets: [
    .target(
      name: "Streams",
      dependencies: [.target(name: "CLinuxSystem", condition: .when(platforms: [.linux]))]
    ),
    .target(name: "StreamsTesting", dependencies: ["Streams"]),
    .target(name: "Datasync"),
    .target(name: "DatasyncStreams", dependencies: ["Streams", "Datasync"]),
    .target(name: "CLinuxSystem"),
    .target(name: "DatasyncServer", dependencies: ["Datasync", "CLinuxSystem"]),
    .executableTarget(
      name: "datasync", dependencies: ["Datasync", "DatasyncStreams", "DatasyncServer", "Streams"]
    ),
    .executableTarget(
      name: "Benchmarks",
      dependencies: ["Streams", "StreamsTesting", "Datasync", "DatasyncStreams", "DatasyncServer"]
    ),
    .executableTarget(
      name: "Playgrounds",
      dependencies: ["Streams", "StreamsTesting", "Datasync", "DatasyncStreams"],
      path: "Playgrounds"
    ),
    .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTesting"]),
    .testTarget(name: "StreamsTestingTests", dependencies: ["Streams", "StreamsTesting"]),
    .testTarget(name: "DatasyncTests", dependencies: ["Datasync"]),
    .testTarget(
      name: "DatasyncStreamsTests",
      dependencies: ["DatasyncStreams", "Datasync", "DatasyncServer", "Streams", "StreamsTesting"]
    ),
    .testTarget(name: "DatasyncServerTests", dependencies: ["DatasyncServer", "Datasync"]),
    .testTarget(
      name: "PlaygroundsTests",
      dependencies: ["Playgrounds", "Datasync", "Streams", "StreamsTesting"]
    ),
    .testTarget(name: "DatasyncCLITests", dependencies: ["datasync"]),
  ],
  swiftLanguageModes: [.v6]
)
