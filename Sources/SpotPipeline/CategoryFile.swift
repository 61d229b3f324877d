import SpotJSON
import Spots

/// Reads a category table file (Pipelines/categories.json; docs/build.md documents its schema):
///
///     {"schema_version": 1, "tags": {"amenity": {"cafe": "cafe",
///         "attraction": {"category": "landmark", "when": [{"tag": "historic=castle", "category": "castle"}]}}},
///      "result_types": {"natural": "physicalFeature"}}
///
/// A value mapped to null has a rule that gives no category (`shop=funeral_directors`).
enum CategoryFile {
    /// The table in `text`, the contents of `file`; refuses anything off-schema with the field's path.
    static func parse(_ text: String, file: String) throws(JSONFieldError) -> CategoryTable {
        let versioned = try PipelineJSON.parse(text, file: file).versioned(
            key: "tags", allowing: ["about", "result_types"])
        var rules: [String: [String: CategoryTable.Rule]] = [:]
        for (key, values) in try versioned.member.object() {
            for (value, entry) in try values.object() {
                rules[key, default: [:]][value] = try rule(entry)
            }
        }
        var resultTypes: [String: ResultType] = [:]
        for (key, entry) in try versioned.members["result_types"]?.object() ?? [:] {
            guard let type = ResultType(rawValue: try entry.string()), type != .address else {
                throw entry.error("expected \"pointOfInterest\" or \"physicalFeature\"")
            }
            resultTypes[key] = type
        }
        return CategoryTable(rules: rules, resultTypes: resultTypes)
    }

    private static func rule(_ entry: JSONField) throws(JSONFieldError) -> CategoryTable.Rule {
        if entry.isNull { return CategoryTable.Rule(category: nil) }
        if case .string = entry.value { return CategoryTable.Rule(category: try category(entry)) }
        let fields = try entry.object(allowing: ["category", "when"])
        guard let fallback = fields["category"] else {
            throw entry.error("expected a category name, or an object with \"category\"")
        }
        var conditions: [CategoryTable.Condition] = []
        for item in try fields["when"]?.array() ?? [] {
            let condition = try item.object(allowing: ["tag", "category"])
            guard let tag = condition["tag"], let target = condition["category"] else {
                throw item.error("expected {\"tag\": \"key=value\", \"category\": ...}")
            }
            let (key, value) = try PipelineFile.tag(tag)
            conditions.append(CategoryTable.Condition(key: key, value: value, category: try category(target)))
        }
        return CategoryTable.Rule(category: try category(fallback), conditions: conditions)
    }

    /// A category name, or null for none.
    static func category(_ node: JSONField) throws(JSONFieldError) -> Category? {
        if node.isNull { return nil }
        let name = try node.string()
        guard let category = Category(rawValue: name) else { throw node.error("unknown category \"\(name)\"") }
        return category
    }
}
