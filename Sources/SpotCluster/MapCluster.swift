import Spots

/// A cluster as an app draws it: a pin for `count` spots, an icon or pie from `categories`, and
/// where to zoom when it is tapped.
public struct MapCluster: Equatable, Sendable {
    /// Its id, stable within one index (its position in the index's clusters); nil for a
    /// cluster made at query time (with a category filter), which the index does not hold.
    public let id: Int?
    /// Its point: the weighted centroid of its spots in Web Mercator.
    public let coordinate: Coordinate
    /// How many spots it holds.
    public let count: Int
    /// How many of its spots each category has, by category name; spots without a category
    /// are not counted.
    public let categories: [CategoryCount]
    /// The box of its spots.
    public let boundingBox: GeoBox
    /// The zoom at which it splits into smaller clusters or spots (supercluster's expansion zoom).
    public let expansionZoom: Int

    /// A cluster with the given fields.
    public init(
        id: Int?, coordinate: Coordinate, count: Int, categories: [CategoryCount], boundingBox: GeoBox,
        expansionZoom: Int
    ) {
        self.id = id
        self.coordinate = coordinate
        self.count = count
        self.categories = categories
        self.boundingBox = boundingBox
        self.expansionZoom = expansionZoom
    }
}

/// How many spots of a cluster have a category.
public struct CategoryCount: Equatable, Sendable {
    /// The category.
    public let category: Category
    /// How many spots have it.
    public let count: Int

    /// A count of `count` spots of `category`.
    public init(_ category: Category, _ count: Int) {
        self.category = category
        self.count = count
    }

    /// The counts of `counts`, one per category (counts of the same category added up),
    /// sorted by category name.
    public static func byName(_ counts: [CategoryCount]) -> [CategoryCount] {
        var merged: [CategoryCount] = []
        for entry in counts.sorted(by: { $0.category.rawValue < $1.category.rawValue }) {
            if let last = merged.last, last.category == entry.category {
                merged[merged.count - 1] = CategoryCount(entry.category, last.count + entry.count)
            } else {
                merged.append(entry)
            }
        }
        return merged
    }
}
