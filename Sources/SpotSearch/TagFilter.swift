/// A filter by the tag that selected each spot (its kind's `key=value`), as Photon's `osm_tag`
/// parameters filter: a spot passes when it matches one of `including` (or that list is empty)
/// and none of `excluding`.
public struct TagFilter: Sendable, Equatable {
    /// A key, a value, or both; nil matches any.
    public struct Pattern: Sendable, Equatable {
        public let key: String?
        public let value: String?

        /// The pattern of `key` and `value`, either of which may be nil for any.
        public init(key: String?, value: String?) {
            self.key = key
            self.value = value
        }

        /// Whether a spot selected by `key=value` matches.
        public func matches(key: String, value: String) -> Bool {
            (self.key.map { $0 == key } ?? true) && (self.value.map { $0 == value } ?? true)
        }
    }

    /// Patterns of which a spot must match one; none asks nothing.
    public var including: [Pattern]
    /// Patterns of which a spot must match none.
    public var excluding: [Pattern]

    /// The filter of these patterns.
    public init(including: [Pattern] = [], excluding: [Pattern] = []) {
        self.including = including
        self.excluding = excluding
    }

    /// Whether a spot selected by `key=value` passes.
    public func allows(key: String, value: String) -> Bool {
        (including.isEmpty || including.contains { $0.matches(key: key, value: value) })
            && !excluding.contains { $0.matches(key: key, value: value) }
    }
}
