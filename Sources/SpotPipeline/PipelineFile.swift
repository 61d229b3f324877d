import Foundation
import OSMInput
import SpotBuiltInWords
import SpotCluster
import SpotIndex
import SpotJSON
import SpotText
import Spots

/// The JSON form of a pipeline file.
enum PipelineFile {
    /// The top-level keys a pipeline file may have.
    static let keys = Set([
        "inputs", "output", "categories", "category_words", "value_words", "select", "addresses", "exclude", "keep_all",
        "areas", "dedupe", "clusters", "limits", "overwrite", "state",
    ]).union(PipelineFields.keys)

    /// Parses `text` (the contents of `file`), resolving paths against `folder` (nil: the
    /// built-in folder), taking absent fields from `base` (nil: every field but inputs and
    /// output must be present, as in default.json).
    static func parse(
        _ text: String, file: String, folder: URL?, over base: Pipeline?
    ) throws(JSONFieldError) -> Pipeline {
        let top = try PipelineJSON.parse(text, file: file)
        let root = PipelineObject(top, members: try top.object(allowing: keys))
        func resolve(_ node: JSONField) throws(JSONFieldError) -> String {
            let path = try node.string()
            guard !path.isEmpty else { throw node.error("expected a path") }
            guard let folder, !path.hasPrefix("/") else { return path }
            return folder.appendingPathComponent(path).standardizedFileURL.path
        }

        let inputs =
            try root["inputs"].map { (node) throws(JSONFieldError) in try node.array().map(resolve) }
            ?? base?.inputs ?? []
        let output = try root["output"].map(resolve) ?? base?.output
        let overwrite = try root.bool("overwrite", inherited: base?.overwrite ?? false)
        let keepState = try root.bool("state", inherited: base?.keepState ?? false)
        let categories = try root.value("categories", inherited: base?.categories) { (node) throws(JSONFieldError) in
            let text = try dataFile(node, folder: folder, builtIn: BuiltInPipelineFiles.categories)
            return try CategoryFile.parse(text, file: try node.string())
        }
        let categoryWords = try root.value("category_words", inherited: base?.searchWords.categories) {
            (node) throws(JSONFieldError) in
            try wordFile(node, folder: folder, builtIn: SearchWords.builtIn.categories, SearchWordFiles.categoryWords)
        }
        let builtInValues = (words: SearchWords.builtIn.values, compounds: SearchWords.builtIn.compounds)
        let valueWords = try root.value(
            "value_words", inherited: base.map { (words: $0.searchWords.values, compounds: $0.searchWords.compounds) }
        ) { (node) throws(JSONFieldError) in
            try wordFile(node, folder: folder, builtIn: builtInValues, SearchWordFiles.valueWords)
        }
        let exclude = try root.value("exclude", inherited: base?.exclude) { (node) throws(JSONFieldError) in
            Set(try node.array().map { (item) throws(JSONFieldError) in try tag(item).key + "=" + tag(item).value })
        }
        let selectKeys = try root.value("select", inherited: base?.selection.keys) { (node) throws(JSONFieldError) in
            try selectingKeys(node)
        }
        let selection = SpotSelection(
            keys: selectKeys, addresses: try root.bool("addresses", inherited: base?.selection.addresses))
        let keepAll = try root.bool("keep_all", inherited: base?.keepAll)
        let areas = try root.bool("areas", inherited: base?.areas)
        let dedupe = try dedupeSettings(
            try root.object("dedupe", allowing: ["enabled", "radius", "radius_by_category"], required: base == nil),
            base: base?.dedupe)
        let clusters = try clusterSettings(
            try root.object("clusters", allowing: Set(clusterKeys), required: base == nil), base: base)
        let limits = try readLimits(
            try root.object("limits", allowing: Set(limitKeys), required: base == nil), base: base?.limits)
        return Pipeline(
            file: nil, fileSHA256: nil, inputs: inputs, output: output, overwrite: overwrite, keepState: keepState,
            categories: categories,
            searchWords: SearchWords(
                categories: categoryWords, values: valueWords.words, compounds: valueWords.compounds),
            selection: selection, exclude: exclude, keepAll: keepAll, areas: areas,
            dedupe: dedupe,
            refreshFields: PipelineFields(of: root, over: base?.refreshFields), clusters: clusters, limits: limits)
    }

    /// The `select` array: one or more distinct OSM keys, in order of precedence.
    private static func selectingKeys(_ node: JSONField) throws(JSONFieldError) -> [String] {
        let items = try node.array()
        guard !items.isEmpty else { throw node.error("expected at least one key") }
        var keys: [String] = []
        for item in items {
            let key = try item.string()
            guard !key.isEmpty, !key.contains("="), !key.contains(where: \.isWhitespace) else {
                throw item.error("expected an OSM key, got \"\(key)\"")
            }
            guard !keys.contains(key) else { throw item.error("\"\(key)\" is listed twice") }
            guard key != SelectingTag.address.key else {
                throw item.error("address points are selected by \"addresses\": true, not by select")
            }
            keys.append(key)
        }
        return keys
    }

    /// A `key=value` tag string.
    static func tag(_ node: JSONField) throws(JSONFieldError) -> (key: String, value: String) {
        let text = try node.string()
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw node.error("expected \"key=value\", got \"\(text)\"")
        }
        return (String(parts[0]), String(parts[1]))
    }

    /// The words of the word file that `node` names, read by `parse` (`SearchWordFiles`): the
    /// built-in words for default.json, which names the built-in files.
    private static func wordFile<Words>(
        _ node: JSONField, folder: URL?, builtIn: Words,
        _ parse: (JSONField) throws(JSONFieldError) -> Words
    ) throws(JSONFieldError) -> Words {
        guard folder != nil else { return builtIn }
        let text = try dataFile(node, folder: folder, builtIn: "")
        return try parse(try PipelineJSON.parse(text, file: try node.string()))
    }

    /// The text of the data file a pipeline names: the built-in one for default.json.
    private static func dataFile(_ node: JSONField, folder: URL?, builtIn: String) throws(JSONFieldError) -> String {
        let name = try node.string()
        guard let folder else { return builtIn }
        let path = name.hasPrefix("/") ? name : folder.appendingPathComponent(name).path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw node.error("cannot read the file \(path)")
        }
        return text
    }

    /// The `dedupe` object: `enabled`, `radius` and `radius_by_category` (metres, 0 to 200);
    /// absent fields come from `base`.
    private static func dedupeSettings(
        _ fields: PipelineObject, base: DedupeSettings?
    ) throws(JSONFieldError) -> DedupeSettings {
        let range = 0.0...200.0
        let byCategory = try fields.value("radius_by_category", inherited: base?.radiusByCategory) {
            (overrides) throws(JSONFieldError) in
            var byCategory: [Category: Double] = [:]
            for (name, value) in try overrides.object() {
                guard let category = Category(rawValue: name) else { throw value.error("unknown category \"\(name)\"") }
                byCategory[category] = try value.number(in: range, "a distance in metres")
            }
            return byCategory
        }
        return DedupeSettings(
            enabled: try fields.bool("enabled", inherited: base?.enabled),
            radius: try fields.number("radius", in: range, "a distance in metres", inherited: base?.radius),
            radiusByCategory: byCategory)
    }

    private static let clusterKeys = ["enabled", "max_zoom", "radius", "extent"]

    /// The `clusters` object: `enabled`, `max_zoom`, `radius` (pixels) and `extent` (pixels);
    /// nil when disabled. Absent fields come from `base`, or from supercluster's defaults when
    /// `base` has cluster levels turned off.
    private static func clusterSettings(
        _ fields: PipelineObject, base: Pipeline?
    ) throws(JSONFieldError) -> ClusterSettings? {
        if base == nil, let missing = clusterKeys.first(where: { fields[$0] == nil }) { throw fields.missing(missing) }
        guard try fields["enabled"]?.bool() ?? (base?.clusters != nil) else { return nil }
        let defaults = base?.clusters ?? .standard
        var maxZoom = defaults.maxZoom
        if let zoom = fields["max_zoom"] {
            let range = ClusterSettings.maxZoomRange
            maxZoom = try zoom.integer(atLeast: range.lowerBound)
            guard range.contains(maxZoom) else { throw zoom.error("expected a zoom from 0 to \(range.upperBound)") }
        }
        return ClusterSettings(
            maxZoom: maxZoom,
            radius: try fields["radius"]?.number(in: ClusterSettings.radiusRange, "a radius in pixels")
                ?? defaults.radius,
            extent: try fields["extent"]?.number(in: ClusterSettings.extentRange, "a tile size in pixels")
                ?? defaults.extent)
    }

    private static let limitKeys = ["max_element_bytes", "max_tags", "max_value_bytes"]

    /// The `limits` object: `max_element_bytes`, `max_tags`, `max_value_bytes`, each a whole
    /// number of at least 1; absent fields come from `base`.
    private static func readLimits(_ fields: PipelineObject, base: OSMReadLimits?) throws(JSONFieldError)
        -> OSMReadLimits
    {
        if base == nil, let missing = limitKeys.first(where: { fields[$0] == nil }) { throw fields.missing(missing) }
        return OSMReadLimits(
            maxElementBytes: try fields.integer("max_element_bytes", atLeast: 1, inherited: base?.maxElementBytes),
            maxTags: try fields.integer("max_tags", atLeast: 1, inherited: base?.maxTags),
            maxValueBytes: try fields.integer("max_value_bytes", atLeast: 1, inherited: base?.maxValueBytes))
    }
}
