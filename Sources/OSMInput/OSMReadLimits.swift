/// Bounds on what one element of the input may hold, so that a hostile or broken input is
/// refused with a message naming the bound instead of taking unbounded memory or time.
///
/// The defaults are far above anything OpenStreetMap holds (the API allows 255-character tag
/// values; the largest relations are a few MB of XML). Memory while reading is bounded by the
/// ring, plus about twice `maxElementBytes` for the parser that meets the largest element.
public struct OSMReadLimits: Sendable, Equatable {
    /// The most bytes of XML one top-level element may take, from its start tag to its end
    /// tag; also the longest any single piece of markup (a comment, a declaration) may be.
    public var maxElementBytes: Int
    /// The most `<tag>` children one element that the reader keeps may have.
    public var maxTags: Int
    /// The longest tag key or value (the `k` and `v` attributes) in bytes.
    public var maxValueBytes: Int

    /// The generous defaults: 16 MiB elements, 10,000 tags, 64 KiB values.
    public static let standard = OSMReadLimits(maxElementBytes: 16 << 20, maxTags: 10_000, maxValueBytes: 64 << 10)

    /// Limits of the given sizes, each at least 1.
    public init(maxElementBytes: Int, maxTags: Int, maxValueBytes: Int) {
        self.maxElementBytes = max(1, maxElementBytes)
        self.maxTags = max(1, maxTags)
        self.maxValueBytes = max(1, maxValueBytes)
    }

    /// The message for an element or markup larger than `maxElementBytes`.
    var elementTooLarge: String {
        "element larger than the limit of \(maxElementBytes) bytes (max_element_bytes)"
    }
}
