import Spots

/// The tag that selected a spot, with the category it maps to: `amenity=fast_food`, `.restaurant`.
/// Spots share these; an index stores each distinct one once (KIND) and calls it a kind, and
/// its position there the spot's kind number.
///
/// `value` is what `Spot.kind` holds ("fast_food"), `key` what `Spot.tagKey` holds.
public struct SelectingTag: Sendable, Equatable {
    /// The key: "amenity" or "tourism".
    public let key: String
    /// The OSM value ("fast_food").
    public let value: String
    /// The category, or nil.
    public let category: Category?
}
