/// Maps an OSM tag (`amenity=cafe`) to its category, consulting a second tag where that decides
/// (`tourism=attraction` with `historic=castle` is a castle).
///
/// The table is data: SpotPipeline reads it from Pipelines/categories.json.
public struct CategoryTable: Sendable, Equatable {
    /// What one value maps to: a default category, and conditions tried in order first.
    public struct Rule: Sendable, Equatable {
        /// The category when no condition holds; nil for none.
        public var category: Category?
        /// Conditions on another tag of the object, tried in order; the first that holds decides.
        public var conditions: [Condition]

        /// A rule with a default and conditions.
        public init(category: Category?, conditions: [Condition] = []) {
            self.category = category
            self.conditions = conditions
        }
    }

    /// "When the object also has `key=value`, the category is `category`."
    public struct Condition: Sendable, Equatable {
        /// The other tag's key ("historic").
        public var key: String
        /// The other tag's value ("castle").
        public var value: String
        /// The category that the condition gives; nil for none.
        public var category: Category?

        /// A condition.
        public init(key: String, value: String, category: Category?) {
            self.key = key
            self.value = value
            self.category = category
        }
    }

    /// Rules by selecting key ("amenity"), then by value ("cafe").
    public let rules: [String: [String: Rule]]
    /// The result type of the spots each selecting key selects, where it is not a point of
    /// interest ("natural": physical feature).
    public let resultTypes: [String: ResultType]

    /// A table of `rules`, with `resultTypes` by selecting key.
    public init(rules: [String: [String: Rule]], resultTypes: [String: ResultType] = [:]) {
        self.rules = rules
        self.resultTypes = resultTypes
    }

    /// The keys of the other tags that the conditions of `selecting` keys' rules consult
    /// ("historic"): what the build must keep of an object, beyond its selecting tag, to
    /// categorize it.
    public func consultedKeys(selecting: [String]) -> Set<String> {
        Set(selecting.flatMap { rules[$0]?.values.flatMap { $0.conditions.map(\.key) } ?? [] })
    }

    /// The result type of the spots that `key` selects.
    public func resultType(ofKey key: String) -> ResultType {
        resultTypes[key] ?? .pointOfInterest
    }

    /// The categories that no rule of the `selecting` keys gives, by default or by a condition:
    /// what a build with that selection can never produce, in declaration order.
    public func unreachedCategories(selecting: [String]) -> [Category] {
        let reached = Set(
            selecting.flatMap { key in
                (rules[key]?.values ?? [:].values).flatMap { rule in [rule.category] + rule.conditions.map(\.category) }
            }
            .compactMap { $0 })
        return Category.allCases.filter { !reached.contains($0) }
    }

    /// Whether the table has a rule for `key=value` (which may still give no category).
    public func hasRule(key: String, value: String) -> Bool {
        rules[key]?[value] != nil
    }

    /// The category of an object selected by `key=value`, whose other tags are `context`
    /// (at least the consulted keys); nil when the table maps the value to none.
    public func category(key: String, value: String, context: [String: String] = [:]) -> Category? {
        guard let rule = rules[key]?[value] else { return nil }
        let condition = rule.conditions.first { context[$0.key] == $0.value }
        return condition.map(\.category) ?? rule.category
    }
}
