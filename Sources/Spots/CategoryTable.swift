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

    /// A table of `rules`.
    public init(rules: [String: [String: Rule]]) {
        self.rules = rules
    }

    /// The keys of the other tags that some condition consults ("historic"): what the build must
    /// keep of an object, beyond its selecting tag, to categorize it.
    public var consultedKeys: Set<String> {
        Set(rules.values.flatMap { $0.values.flatMap { $0.conditions.map(\.key) } })
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
