// swift-tools-version:6.0
// Spots: an offline place-search index built from OpenStreetMap extracts.
// Layout and data flow: README.md ("Layout"); one module per concern, data flowing one way.
import PackageDescription

let package = Package(
    name: "Spots",
    products: [
        .executable(name: "spots", targets: ["SpotsCLI"]),
        .library(name: "Spots", targets: ["Spots"]),
        .library(name: "SpotIndex", targets: ["SpotIndex"]),
        .library(name: "SpotSearch", targets: ["SpotSearch"]),
    ],
    targets: [
        // C libraries, through their pkg-config names.
        .systemLibrary(name: "CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libbz2, for bzip2 inputs (Debian's package has no pkg-config file).
        .systemLibrary(name: "CBzip2", providers: [.apt(["libbz2-dev"])]),
        // Intel's ISA-L: its inflate (igzip) for gzip inputs and PBF's zlib blobs.
        .systemLibrary(name: "CIsal", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),

        // The process's C symbols looked up by name, and how its allocator keeps freed memory.
        // Glibc (Darwin) only.
        .target(name: "ProcessSupport"),
        // Bytes to OSM elements: OSM XML (plain, gzip or bzip2) and OSM PBF.
        .target(name: "OSMInput", dependencies: ["CExpat", "CZlib", "CIsal", "CBzip2", "ProcessSupport"]),
        // The domain: spots, categories, coordinates. Foundation only.
        .target(name: "Spots"),
        // Where outputs are written: the format a file's name implies, and files written all or
        // nothing (a temporary file beside the output, fsynced and renamed). Foundation only.
        .target(name: "SpotOutput"),
        // JSON, one way: the value type, the strict parser whose errors name the JSON path, the
        // path-naming validator of pipeline and word files, and the writer. No dependencies.
        .target(name: "SpotJSON"),
        // Search words: the words that name categories and OSM values, their files and line form.
        .target(name: "SpotWords", dependencies: ["Spots", "SpotJSON"]),
        // Area geometry for the build: node locations, way node lists, rings, representative points.
        .target(name: "OSMGeometry", dependencies: ["Spots"]),
        // Pin clustering by the supercluster method, in Web Mercator. Foundation only.
        .target(name: "SpotCluster", dependencies: ["Spots"]),
        // The index file format: writer and memory-mapped reader. Foundation only. Carries the
        // built-in search words, folded by the fold-words tool through the EmbedPipelines plugin.
        .target(
            name: "SpotIndex", dependencies: ["Spots", "SpotCluster", "SpotWords", "SpotJSON"],
            exclude: ["FORMAT.md", "FORMAT-CHANGELOG.md"], plugins: ["EmbedPipelines"]),
        // The build: OSM elements to spots to an index. Carries Pipelines/default.json and
        // categories.json, compiled in by the EmbedPipelines plugin.
        .target(
            name: "SpotPipeline",
            dependencies: [
                "OSMInput", "OSMGeometry", "Spots", "SpotIndex", "SpotWords", "SpotCluster", "SpotJSON", "CCrypto",
                "ProcessSupport",
            ],
            plugins: ["EmbedPipelines"]),
        .executableTarget(name: "embed-files", path: "Sources/embed-files"),
        // The plugin's tools: files as text constants; the search word files folded into lines.
        .executableTarget(name: "fold-words", dependencies: ["SpotWords", "SpotJSON"], path: "Sources/fold-words"),
        // A seeded random number generator shared by the tests and benchmarks.
        .target(name: "SeededRandom"),
        // Benchmarks/search.sh's in-process timer: open time and request latency percentiles.
        .executableTarget(
            name: "search-latency",
            dependencies: ["SpotSearch", "SpotIndex", "Spots", "SeededRandom", "ProcessSupport"],
            path: "Benchmarks/SearchLatency"),
        // Benchmarks/cluster.sh's in-process timer: latency percentiles of cluster requests.
        .executableTarget(
            name: "cluster-latency", dependencies: ["SpotSearch", "SpotIndex", "Spots", "ProcessSupport"],
            path: "Benchmarks/ClusterLatency"),
        .plugin(name: "EmbedPipelines", capability: .buildTool(), dependencies: ["embed-files", "fold-words"]),
        // Queries over a loaded index: nearby, region, text, category, lookup. Foundation only.
        .target(name: "SpotSearch", dependencies: ["SpotIndex", "SpotWords", "Spots", "SpotCluster"]),
        // An index's spots as NDJSON, GeoJSON or CSV; search results and clusters as the commands print them.
        .target(
            name: "SpotExport",
            dependencies: ["Spots", "SpotIndex", "SpotSearch", "SpotCluster", "SpotOutput", "SpotJSON"]),
        // Coverage reports of an index (and its change since an older one): text, JSON, CSV, HTML.
        .target(
            name: "SpotReport", dependencies: ["SpotIndex", "Spots", "SpotOutput", "SpotJSON"],
            exclude: ["REPORT-SCHEMA.md"]),
        // The nightly refresh: lock, unchanged check, build, gates, atomic publishing, generations.
        .target(
            name: "SpotRefresh", dependencies: ["SpotPipeline", "SpotIndex", "SpotReport", "SpotOutput", "SpotJSON"]),
        // The command line (the executable `spots`): arguments, subcommands, progress, exit codes.
        .executableTarget(
            name: "SpotsCLI",
            dependencies: [
                "OSMInput", "Spots", "SpotIndex", "SpotPipeline", "SpotSearch", "SpotExport", "SpotReport",
                "SpotRefresh", "SpotOutput", "SpotJSON",
                "ProcessSupport",
            ]),

        // What the test targets share: the random spot factory, a CSV reader, temporary folders,
        // index files and PBF files written by hand.
        .target(
            name: "SpotTestSupport",
            dependencies: ["Spots", "SpotIndex", "SpotWords", "SpotCluster", "SeededRandom", "CZlib"],
            path: "Tests/SpotTestSupport"),
        .testTarget(name: "OSMInputTests", dependencies: ["OSMInput", "SpotTestSupport", "CBzip2"]),
        .testTarget(name: "SpotsTests", dependencies: ["Spots"]),
        .testTarget(name: "OSMGeometryTests", dependencies: ["OSMGeometry", "Spots"]),
        .testTarget(name: "SpotClusterTests", dependencies: ["SpotCluster", "Spots", "SeededRandom"]),
        .testTarget(
            name: "SpotIndexTests",
            dependencies: [
                "SpotIndex", "SpotWords", "Spots", "SpotCluster", "CZlib", "SeededRandom", "SpotTestSupport",
            ]),
        .testTarget(
            name: "SpotPipelineTests",
            dependencies: [
                "SpotPipeline", "OSMInput", "OSMGeometry", "Spots", "SpotIndex", "SpotWords", "SpotJSON",
                "SpotCluster", "SpotTestSupport", "SeededRandom",
            ]),
        .testTarget(
            name: "SpotSearchTests",
            dependencies: [
                "SpotSearch", "SpotIndex", "SpotWords", "Spots", "SpotCluster", "SpotPipeline", "SeededRandom",
                "SpotTestSupport",
            ]),
        .testTarget(name: "SpotJSONTests", dependencies: ["SpotJSON"]),
        .testTarget(name: "SpotOutputTests", dependencies: ["SpotOutput", "SpotTestSupport"]),
        .testTarget(
            name: "SpotExportTests",
            dependencies: [
                "SpotExport", "Spots", "SpotIndex", "SpotSearch", "SpotCluster", "SeededRandom", "SpotTestSupport",
            ]),
        .testTarget(
            name: "SpotReportTests",
            dependencies: ["SpotReport", "SpotIndex", "Spots", "SpotPipeline", "SpotTestSupport"]),
        .testTarget(
            name: "SpotRefreshTests",
            dependencies: ["SpotRefresh", "SpotPipeline", "SpotIndex", "SpotReport", "SpotOutput", "SpotTestSupport"]),
        .testTarget(name: "CommandTests", dependencies: ["SpotsCLI", "SpotTestSupport"]),
    ]
)
