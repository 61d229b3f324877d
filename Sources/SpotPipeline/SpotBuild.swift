import Foundation
import OSMInput
import ProcessSupport
import SpotIndex
import SpotIndexWriting
import SpotState
import Spots

/// How far a build has read: bytes of all inputs, and their total when every input is a file.
public struct BuildProgress: Sendable {
    /// Raw input bytes read so far, over all inputs.
    public var bytesRead: Int
    /// The inputs' total size, when known.
    public var totalBytes: Int?
}

/// What a build read and did.
public struct BuildStatistics: Sendable {
    /// Top-level elements read, over all inputs.
    public var nodes = 0, ways = 0, relations = 0
    /// Elements marked deleted in the inputs, skipped.
    public var deletedElements = 0
    /// Raw input bytes read; XML text read (after inflating); PBF blocks' bytes decoded.
    public var inputBytes = 0, xmlBytes = 0, pbfBytes = 0
    /// Pieces of XML parsed apart (on the parsing threads, or on the caller's thread with one
    /// thread), and pieces parsed in order by the sequential parser (the prolog, the root's end,
    /// and regions whose element boundaries could not be proven). Not stored in the index: its
    /// bytes are the same whatever the thread count.
    public var parallelPieces = 0, sequentialPieces = 0
    /// Nodes in the plain form (`<node …/>` without tags) read without expat. Not stored either.
    public var plainElements = 0
    /// Blocks of PBF inputs decoded. Not stored either.
    public var pbfBlocks = 0
    /// Each stage's report, "read" first.
    public var stages: [StageReport] = []
    /// Spots written.
    public var spots: Int { stages.last?.output ?? 0 }
    /// Spots written with a MapKit category, with a Spots extension category, and with none
    /// (`--keep-all`, address points). Not stored: the index's kinds say it.
    public var mapKitSpots = 0, extensionSpots = 0, uncategorizedSpots = 0

    /// Counts what one input's read gave: its elements, bytes (XML or PBF) and pieces.
    mutating func add(_ summary: OSMReadSummary) {
        nodes += summary.nodes
        ways += summary.ways
        relations += summary.relations
        deletedElements += summary.deleted
        inputBytes += summary.inputBytes
        if summary.pbfBlocks > 0 {
            pbfBytes += summary.xmlBytes
        } else {
            xmlBytes += summary.xmlBytes
        }
        parallelPieces += summary.parallelPieces
        sequentialPieces += summary.sequentialPieces
        plainElements += summary.plainElements
        pbfBlocks += summary.pbfBlocks
    }

    /// The read counters by their snake_case names, as the index metadata stores them: the
    /// XML and PBF byte counts each only when that format was read (`xml_bytes` also for no
    /// input at all, as before PBF).
    var byName: [String: Int] {
        var names = [
            "nodes": nodes, "ways": ways, "relations": relations, "deleted_elements": deletedElements,
            "input_bytes": inputBytes, "spots": spots,
        ]
        if xmlBytes > 0 || pbfBytes == 0 { names["xml_bytes"] = xmlBytes }
        if pbfBytes > 0 { names["pbf_bytes"] = pbfBytes }
        return names
    }
}

/// The build: reads the OSM inputs, runs the stage chain (select → categorize → normalize →
/// dedupe → collect) and encodes the index.
public struct SpotBuild {
    /// The program name and version recorded in each index.
    public static let generator = "spots \(SpotsVersion.version)"

    /// What to build, and how.
    public let pipeline: Pipeline
    /// The build time to record, as seconds since 1970 (SOURCE_DATE_EPOCH); when nil, the
    /// newest timestamp found in the inputs.
    public let sourceDateEpoch: Int?
    /// Threads that parse XML (OSMReader: as asked, at most `OSMReader.maxThreads`); the index
    /// is the same for any number.
    public let threads: Int

    /// A build of `pipeline`, parsing on `threads` threads (by default one per core).
    public init(
        pipeline: Pipeline, sourceDateEpoch: Int? = nil, threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.pipeline = pipeline
        self.sourceDateEpoch = sourceDateEpoch
        self.threads = OSMReader.parsingThreads(threads)
    }

    /// The stages after reading, in order.
    var stages: [any Stage] {
        [
            SelectStage(keys: pipeline.selection.keys, exclude: pipeline.keepAll ? [] : pipeline.exclude),
            CategorizeStage(table: pipeline.categories, keepUnmapped: pipeline.keepAll),
            NormalizeStage(),
            DedupeStage(settings: pipeline.dedupe, names: DedupeNames(words: pipeline.searchWords)),
            CollectStage(),
        ]
    }

    /// Reads every input and returns the index's bytes and what the build did.
    /// Throws `OSMInputError` for an input that cannot be read.
    public func run(progress: ((BuildProgress) -> Void)? = nil) throws -> (index: [UInt8], statistics: BuildStatistics)
    {
        let (index, statistics, _) = try run(keepingState: false, progress: progress)
        return (index, statistics)
    }

    /// Reads every input and returns the index's bytes, what the build did and, when
    /// `keepingState`, what the index's state file holds (`BuildState`).
    public func run(
        keepingState: Bool, progress: ((BuildProgress) -> Void)? = nil
    ) throws -> (index: [UInt8], statistics: BuildStatistics, state: BuildState?) {
        var read = try readInputs(keepingState: keepingState, progress: progress)
        var statistics = read.statistics
        var candidates = read.takeCandidates()
        let index = encode(
            &candidates, statistics: &statistics, newestTimestamp: read.newestTimestamp, inputs: read.inputs)
        return (index, statistics, read.state)
    }

    /// Runs the stages over `candidates` and encodes the index, counting in `statistics`.
    func encode(
        _ candidates: inout [SpotCandidate], statistics: inout BuildStatistics, newestTimestamp: String?,
        inputs: [IndexMetadata.Input]
    ) -> [UInt8] {
        for stage in stages { statistics.stages.append(stage.run(&candidates)) }
        let spots = candidates.map(\.spot)
        for spot in spots {
            switch spot.category?.isMapKit {
            case true?: statistics.mapKitSpots += 1
            case false?: statistics.extensionSpots += 1
            case nil: statistics.uncategorizedSpots += 1
            }
        }
        candidates = []  // the spots share their attributes; the candidates' own memory goes now
        let metadata = IndexMetadata(
            generator: Self.generator,
            buildTime: sourceDateEpoch.map(Self.iso8601) ?? newestTimestamp,
            inputs: inputs,
            bbox: GeoBox(enclosing: spots.map(\.coordinate)),
            statistics: statistics.byName,
            stages: statistics.stages,
            pipeline: pipeline.settings)
        return SpotIndexWriter.encode(
            consume spots, metadata: metadata, words: pipeline.searchWords, clusters: pipeline.clusters)
    }

    /// What reading the inputs gave: the candidates, the read's statistics (its stage report
    /// first in `stages`), the newest timestamp found and each input's record.
    struct InputsRead {
        var candidates: [SpotCandidate]
        let statistics: BuildStatistics
        let newestTimestamp: String?
        let inputs: [IndexMetadata.Input]
        /// What the state file holds, when asked for.
        let state: BuildState?

        /// The candidates, handed over: they are most of a build's memory, so none stay here.
        mutating func takeCandidates() -> [SpotCandidate] {
            defer { candidates = [] }
            return candidates
        }
    }

    /// Reads every input into candidates, before any stage.
    func readInputs(keepingState: Bool = false, progress: ((BuildProgress) -> Void)? = nil) throws -> InputsRead {
        let sizes = pipeline.inputs.map(Self.fileSize)
        let total = sizes.contains(nil) ? nil : sizes.reduce(0) { $0 + $1! }
        var extractor = SpotExtractor(maker: candidateMaker, areas: pipeline.areas)
        var statistics = BuildStatistics()
        var newestTimestamp: String?
        var inputRecords: [IndexMetadata.Input] = []
        let filter = SpotExtractor.filter(pipeline.selection, areas: pipeline.areas)
        for input in pipeline.inputs {
            let done = statistics.inputBytes
            let hasher = SHA256()
            let summary = try OSMReader(file: input, filter: filter, limits: pipeline.limits, threads: threads).read(
                into: &extractor,
                progress: { step in progress?(BuildProgress(bytesRead: done + step.bytesRead, totalBytes: total)) },
                rawBytes: hasher.update)
            statistics.add(summary)
            newestTimestamp = [newestTimestamp, summary.newestTimestamp].compactMap { $0 }.max()
            inputRecords.append(IndexMetadata.Input(name: input, bytes: summary.inputBytes, sha256: hasher.hexDigest()))
        }
        ProcessMemory.releaseFreed()
        extractor.areas?.finish()
        let areas = extractor.areas
        let (candidates, failures, lookups) = try extractor.records.withTable { table in
            try candidateMaker.candidates(of: table.records, areas: areas)
        }
        var read = StageReport(stage: "read")
        read.dropped = failures
        if extractor.badCoordinates > 0 { read.dropped["bad_coordinates"] = extractor.badCoordinates }
        if extractor.badIDs > 0 { read.dropped["bad_ids"] = extractor.badIDs }
        if extractor.otherRelations > 0 { read.dropped["not_multipolygons"] = extractor.otherRelations }
        read.output = candidates.count
        read.input = read.output + read.dropped.values.reduce(0, +)
        statistics.stages = [read]
        let state =
            keepingState
            ? BuildState(
                records: extractor.records, lookups: lookups, areas: areas,
                metadata: StateMetadata(generator: Self.generator, areas: pipeline.areas, timestamp: newestTimestamp))
            : nil
        return InputsRead(
            candidates: candidates, statistics: statistics, newestTimestamp: newestTimestamp, inputs: inputRecords,
            state: state)
    }

    /// How candidates are made of the records read, by this pipeline.
    var candidateMaker: CandidateMaker {
        CandidateMaker(
            selection: pipeline.selection,
            contextKeys: pipeline.categories.consultedKeys(selecting: pipeline.selection.keys)
                .union(DedupeNames.contextKeys))
    }

    private static func fileSize(_ path: String) -> Int? {
        guard path != "-", let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return (attributes[.size] as? NSNumber)?.intValue
    }

    static func iso8601(_ seconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
