// swift-tools-version:6.0
// Spots: an offline place-search index built from OpenStreetMap extracts.
// Layout and data flow: ARCHITECTURE.md; one module per concern, data flowing one way.
import PackageDescription

let package = Package(
    name: "Spots",
    products: [
        .executable(name: "spots", targets: ["SpotsCLI"]),
        .library(name: "Spots", targets: ["Spots"]),
        .library(name: "SpotIndex", targets: ["SpotIndex"]),
        .library(name: "SpotIndexWriting", targets: ["SpotIndexWriting"]),
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
        // GNU libmicrohttpd: the HTTP/1.1 server of `spots serve` (its threads, epoll, limits).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),

        // The process's C symbols looked up by name, and how its allocator keeps freed memory.
        // Glibc (Darwin) only.
        .target(name: "ProcessSupport"),
        // An input's bytes as read and decompressed, apart from any format, as libosmium keeps its
        // compression apart from its formats: files and stdin, gzip (ISA-L, zlib), bzip2 decoded
        // block by block on several threads, zlib streams of a declared size (PBF blobs), and the
        // reading thread's pipeline. Named for what it gives (streams of input bytes), not for
        // one of its codecs: a plain file passes through it too.
        .target(name: "InputStreams", dependencies: ["CZlib", "CIsal", "CBzip2"]),
        // Bytes to OSM elements: OSM XML (expat, and plain elements read without it) and OSM PBF.
        .target(name: "OSMInput", dependencies: ["InputStreams", "CExpat", "ProcessSupport"]),
        // The domain: spots, categories, coordinates. Foundation only.
        .target(name: "Spots"),
        // Where outputs are written: the format a file's name implies, and files written all or
        // nothing (a temporary file beside the output, fsynced and renamed). Foundation only.
        .target(name: "SpotOutput"),
        // JSON, one way: the value type, the strict parser whose errors name the JSON path, the
        // path-naming validator of pipeline and word files, and the writer. No dependencies.
        .target(name: "SpotJSON"),
        // Language, the one analyzer that the index writer, the query parser and deduplication all
        // call: folding and tokens, street and address words, address lines, the search words
        // that name categories and OSM values (their files and line form).
        .target(name: "SpotText", dependencies: ["Spots", "SpotJSON"]),
        // The package's own search words (Pipelines/category-words.json, value-words.json),
        // folded into lines by the fold-words tool through the EmbedFiles plugin.
        .target(name: "SpotBuiltInWords", dependencies: ["SpotText"], plugins: ["EmbedFiles"]),
        // Area geometry for the build: node locations, way node lists, rings, representative points.
        .target(name: "OSMGeometry", dependencies: ["Spots"]),
        // Pin clustering by the supercluster method, in Web Mercator. Foundation only.
        .target(name: "SpotCluster", dependencies: ["Spots"]),
        // The index file format and its memory-mapped reader: what an app links. Foundation only.
        .target(
            name: "SpotIndex", dependencies: ["Spots", "SpotCluster", "SpotText", "SpotJSON"],
            exclude: ["FORMAT.md", "FORMAT-CHANGELOG.md"]),
        // The index writer: spots to an index file's bytes, with its string, text and cluster tables.
        .target(
            name: "SpotIndexWriting",
            dependencies: ["SpotIndex", "Spots", "SpotCluster", "SpotText", "SpotBuiltInWords", "ProcessSupport"]),
        // The state an index keeps beside it for updates from change files (NAME.state): every
        // node's location, every way's node list, the selected objects' records, in checked
        // blocks, and the pair's publishing.
        .target(
            name: "SpotState",
            dependencies: ["OSMInput", "OSMGeometry", "SpotIndex", "SpotOutput", "SpotJSON", "CZlib"]),
        // The build: OSM elements to spots to an index. Carries Pipelines/default.json and
        // categories.json, compiled in by the EmbedFiles plugin.
        .target(
            name: "SpotPipeline",
            dependencies: [
                "OSMInput", "OSMGeometry", "Spots", "SpotIndex", "SpotIndexWriting", "SpotText", "SpotBuiltInWords",
                "SpotCluster", "SpotJSON", "CCrypto", "SpotState", "SpotOutput",
                "ProcessSupport",
            ],
            plugins: ["EmbedFiles"]),
        .executableTarget(name: "embed-files", path: "Sources/embed-files"),
        // The plugin's tools: files as text constants; the search word files folded into lines.
        .executableTarget(name: "fold-words", dependencies: ["SpotText", "SpotJSON"], path: "Sources/fold-words"),
        // A seeded random number generator shared by the tests and benchmarks.
        .target(name: "SeededRandom"),
        // Benchmarks/search.sh's in-process timer: open time and request latency percentiles.
        .executableTarget(
            name: "search-latency",
            dependencies: [
                "SpotSearch", "SpotIndex", "SpotJSON", "SpotText", "Spots", "SeededRandom", "ProcessSupport",
            ],
            path: "Benchmarks/SearchLatency"),
        // Benchmarks/cluster.sh's in-process timer: latency percentiles of cluster requests.
        .executableTarget(
            name: "cluster-latency", dependencies: ["SpotSearch", "SpotIndex", "SpotJSON", "Spots", "ProcessSupport"],
            path: "Benchmarks/ClusterLatency"),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["embed-files", "fold-words"]),
        // Queries over a loaded index: nearby, region, text, category, lookup. Foundation only.
        .target(
            name: "SpotSearch", dependencies: ["SpotIndex", "SpotText", "SpotBuiltInWords", "Spots", "SpotCluster"]),
        // An index's spots as NDJSON, GeoJSON or CSV; search results and clusters as the commands print them.
        .target(
            name: "SpotExport",
            dependencies: ["Spots", "SpotIndex", "SpotSearch", "SpotCluster", "SpotText", "SpotOutput", "SpotJSON"]),
        // Requests as programs write them: batch lines (JSON), a query string's parameters read
        // as a batch line's keys, points, boxes and zooms; each refusal names the key.
        .target(
            name: "SpotRequests", dependencies: ["SpotSearch", "Spots", "SpotJSON", "SpotText", "SpotBuiltInWords"]),
        // `spots serve`: the index over HTTP (libmicrohttpd), with Photon's API and Spots' own,
        // reloading when a new index is published under its path, with metrics and limits, and
        // the map page of Web/, compiled in by the EmbedFiles plugin.
        .target(
            name: "SpotServe",
            dependencies: [
                "CMicroHTTPD", "SpotRequests", "SpotSearch", "SpotIndex", "SpotExport", "SpotReport", "SpotJSON",
                "Spots", "SpotText",
            ],
            plugins: ["EmbedFiles"]),
        // Coverage reports of an index (and its change since an older one): text, JSON, CSV, HTML.
        .target(
            name: "SpotReport", dependencies: ["SpotIndex", "Spots", "SpotOutput", "SpotJSON"],
            exclude: ["REPORT-SCHEMA.md"]),
        // The nightly refresh: lock, unchanged check, build, gates, atomic publishing, generations.
        .target(
            name: "SpotRefresh",
            dependencies: ["SpotPipeline", "SpotIndex", "SpotReport", "SpotOutput", "SpotJSON", "SpotState"]),
        // The command line (the executable `spots`): arguments, subcommands, progress, exit codes.
        .executableTarget(
            name: "SpotsCLI",
            dependencies: [
                "OSMInput", "Spots", "SpotIndex", "SpotPipeline", "SpotSearch", "SpotExport", "SpotReport",
                "SpotRefresh", "SpotOutput", "InputStreams", "SpotJSON", "SpotRequests", "SpotServe",
                "ProcessSupport", "SpotState",
            ]),

        // What the test targets share: the random spot factory, a CSV reader, temporary folders,
        // index files and PBF files written by hand.
        .target(
            name: "SpotTestSupport",
            dependencies: [
                "Spots", "SpotIndex", "SpotIndexWriting", "SpotText", "SpotBuiltInWords", "SpotCluster", "SeededRandom",
                "CZlib",
            ],
            path: "Tests/SpotTestSupport"),
        .testTarget(name: "OSMInputTests", dependencies: ["OSMInput", "InputStreams", "SpotTestSupport", "CBzip2"]),
        .testTarget(name: "SpotsTests", dependencies: ["Spots"]),
        .testTarget(name: "SpotTextTests", dependencies: ["SpotText", "SpotBuiltInWords", "Spots"]),
        .testTarget(name: "OSMGeometryTests", dependencies: ["OSMGeometry", "Spots"]),
        .testTarget(name: "SpotClusterTests", dependencies: ["SpotCluster", "Spots", "SeededRandom"]),
        .testTarget(
            name: "SpotIndexTests",
            dependencies: [
                "SpotIndex", "SpotIndexWriting", "SpotText", "SpotBuiltInWords", "Spots", "SpotCluster", "CZlib",
                "SeededRandom", "SpotTestSupport",
            ]),
        .testTarget(
            name: "SpotPipelineTests",
            dependencies: [
                "SpotPipeline", "OSMInput", "OSMGeometry", "Spots", "SpotIndex", "SpotIndexWriting", "SpotText",
                "SpotBuiltInWords", "SpotJSON",
                "SpotCluster", "SpotTestSupport", "SeededRandom", "ProcessSupport",
            ]),
        .testTarget(
            name: "SpotSearchTests",
            dependencies: [
                "SpotSearch", "SpotIndex", "SpotIndexWriting", "SpotText", "SpotBuiltInWords", "Spots", "SpotCluster",
                "SpotPipeline", "SeededRandom",
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
        .testTarget(
            name: "SpotServeTests",
            dependencies: [
                "SpotServe", "SpotRequests", "SpotSearch", "SpotIndex", "SpotIndexWriting", "SpotPipeline",
                "SpotExport",
                "SpotJSON", "Spots", "SpotTestSupport",
            ]),
    ]
)
