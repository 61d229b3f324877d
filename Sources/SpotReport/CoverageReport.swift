import SpotIndex
import Spots

/// Which index a report is about, as its metadata records it.
public struct IndexSummary: Equatable, Sendable {
    /// The index file as the user named it.
    public let file: String
    /// The program that wrote it ("spots 0.1.0").
    public let generator: String
    /// When its data is from (ISO 8601 UTC), when known.
    public let buildTime: String?
    /// The names of the inputs it was built from, in build order.
    public let inputs: [String]
    /// What the build selected; nil when the index records no pipeline settings.
    public let selection: IndexSelection?
}

/// What a build selected, as its pipeline settings record it: the selecting keys, whether it
/// made address points, and the categories that no rule of those keys gives.
public struct IndexSelection: Equatable, Sendable {
    /// The selecting keys, in order of precedence ("amenity", "tourism", "shop", ...).
    public let keys: [String]
    /// Whether the build made address points.
    public let addresses: Bool
    /// The categories no rule of the selected keys gives, by name, in `Category` order.
    public let unreachedCategories: [String]

    /// The selection that `settings` record.
    public init(_ settings: IndexMetadata.PipelineSettings) {
        keys = settings.select
        addresses = settings.addresses
        unreachedCategories = settings.unreachedCategories
    }

    /// The keys, and address points when made: "amenity, tourism, and address points".
    public var selected: String { keys.joined(separator: ", ") + (addresses ? ", and address points" : "") }

    /// The unreached categories in words: "none: every category has a rule", or
    /// "19 categories no rule reaches: airport, bakery, ...".
    public var unreached: String {
        unreachedCategories.isEmpty
            ? "none: every category has a rule"
            : "\(unreachedCategories.count) categories no rule reaches: "
                + unreachedCategories.joined(separator: ", ")
    }
}

/// What an index covers: totals, categories and result types with their attribute
/// completeness, the values the category table does not map, names by language, and where the
/// spots are.
///
/// Computed in one pass over the spots (plus the metadata the build stored); every list is in
/// a fixed order, so that equal indexes give equal reports.
public struct CoverageReport: Equatable, Sendable {
    /// The index reported on.
    public let index: IndexSummary
    /// All spots, with their attribute completeness; `overall.count` is the total.
    public let overall: Coverage
    /// Spots by the type of their own OSM object.
    public let byType: [OSMType: Int]
    /// OSM objects folded into other spots as duplicates (the sum of the spots' merged lists).
    public let mergedDuplicates: Int
    /// What the build's stages dropped or merged, by reason: in stage order, reasons sorted.
    public let dropped: [DroppedCount]
    /// The categories that have spots, by count (descending), ties by name; "(none)" is spots
    /// without a category.
    public let categories: [CategoryCoverage]
    /// The result types that have spots, in `ResultType` order.
    public let resultTypes: [ResultTypeCoverage]
    /// The to-do list of the category table: selecting tags (`amenity=embassy`) with no rule,
    /// by how many spots the build met with them, most frequent first.
    public let unmapped: [Tally]
    /// The selecting tags that a rule of the category table leaves without a category
    /// (`amenity=bench`, kept with `keep_unmapped`, or dropped), by count, most first.
    public let uncategorized: [Tally]
    /// The selecting tags the pipeline's `exclude` dropped, by count, most first.
    public let excluded: [Tally]

    /// The reasons whose selecting tags a report breaks down, with their tallies:
    /// `unmapped`, `uncategorized`, `excluded`.
    public var byTag: [(reason: String, tallies: [Tally])] {
        [("unmapped", unmapped), ("uncategorized", uncategorized), ("excluded", excluded)]
    }
    /// Spots with a name in each language (`name:en` counts for `en`), most first.
    public let languages: [Tally]
    /// The smallest box holding every spot; nil for an empty index.
    public let extent: GeoBox?
    /// Spot density over the extent; nil for an empty index.
    public let grid: DensityGrid?
    /// Every spot's place and category group, in spot order: what the HTML map draws.
    public let points: [MapPoint]

    /// The total number of spots.
    public var total: Int { overall.count }

    /// The report of `index`, with a density grid of `gridCells` cells along the longer side.
    public init(index reader: SpotIndexReader, gridCells: Int = DensityGrid.defaultCells) throws(IndexError) {
        let metadata = try reader.metadata()
        index = IndexSummary(
            file: reader.file, generator: metadata.generator, buildTime: metadata.buildTime,
            inputs: metadata.inputs.map(\.name), selection: metadata.pipeline.map(IndexSelection.init))
        var points: [MapPoint] = []
        points.reserveCapacity(reader.count)
        var overall = Coverage()
        var byType: [OSMType: Int] = [:]
        var byCategory: [Category?: Coverage] = [:]
        var byResultType: [ResultType: Coverage] = [:]
        var languages: [String: Int] = [:]
        var merged = 0
        // Only the keys of a spot's attributes matter here: each key number is named and
        // understood once, and no value is decoded.
        var meaning: [Int: (attribute: SpotAttribute?, language: String?)] = [:]
        for position in 0..<reader.count {
            var attributes = SpotAttributeSet()
            for number in try reader.attributeKeyNumbers(at: position) {
                if meaning[number] == nil {
                    let key = try reader.string(numbered: number)
                    meaning[number] = (SpotAttribute(key: key), Spot.languageCode(ofNameKey: key))
                }
                let (attribute, language) = meaning[number]!
                if let attribute { attributes.insert(attribute) }
                if let language { languages[language, default: 0] += 1 }
            }
            let kind = try reader.kind(at: position)
            points.append(
                MapPoint(coordinate: try reader.coordinate(at: position), group: CategoryGroup(kind.category)))
            overall.add(attributes)
            byType[try reader.ref(at: position).type, default: 0] += 1
            byCategory[kind.category, default: Coverage()].add(attributes)
            byResultType[kind.resultType, default: Coverage()].add(attributes)
            merged += try reader.mergedRefs(of: position).count
        }
        self.overall = overall
        self.byType = byType
        mergedDuplicates = merged
        categories = byCategory.map { CategoryCoverage(category: $0.key, coverage: $0.value) }
            .sorted { ($0.coverage.count, $1.name) > ($1.coverage.count, $0.name) }
        resultTypes = ResultType.allCases.compactMap { type in
            byResultType[type].map { ResultTypeCoverage(resultType: type, coverage: $0) }
        }
        self.languages = Tally.ranked(languages)
        unmapped = Tally.ranked(metadata.tagCounts("unmapped"))
        uncategorized = Tally.ranked(metadata.tagCounts("uncategorized"))
        excluded = Tally.ranked(metadata.tagCounts("excluded"))
        dropped = metadata.stages.flatMap { stage in
            stage.dropped.sorted { $0.key < $1.key }.map {
                DroppedCount(stage: stage.stage, reason: $0.key, count: $0.value)
            }
        }
        extent = GeoBox(enclosing: points.map(\.coordinate))
        grid = extent.map { box in
            var grid = DensityGrid(box: box, cellsOnLongerSide: gridCells)
            for point in points { grid.add(point.coordinate) }
            return grid
        }
        self.points = points
    }

    /// The spots of OSM type `type`.
    public func count(of type: OSMType) -> Int { byType[type] ?? 0 }

    /// The fraction of all spots that `row` (a category or a result type) holds.
    public func share(of row: some CoverageRow) -> Double { fraction(row.coverage.count, of: total) }
}
