import Foundation
import SpotIndex
import SpotJSON
import SpotTestSupport
import SpotText
import Testing

@testable import SpotPipeline
@testable import Spots

/// Writes `text` as a pipeline file in a fresh folder and loads it.
func loadPipeline(_ text: String, files: [String: String] = [:]) throws -> Pipeline {
    try withTemporaryFolder { folder in
        for (name, contents) in files { try folder.write(contents, to: name) }
        return try Pipeline.load(try folder.write(text, to: "city.json"))
    }
}

/// The error loading `text` gives: its JSON path and message.
func pipelineError(_ text: String, files: [String: String] = [:]) -> (path: String?, message: String)? {
    do {
        _ = try loadPipeline(text, files: files)
        return nil
    } catch let error as PipelineError {
        return (error.path, error.message)
    } catch {
        return nil
    }
}

@Suite("Pipeline files")
struct PipelineFileTests {
    @Test("the built-in defaults: the category table, the exclusions, 50 m")
    func defaults() throws {
        let pipeline = try Pipeline.defaults()
        #expect(pipeline.inputs.isEmpty && pipeline.output == nil)
        #expect(
            pipeline.exclude.isSuperset(of: [
                "amenity=bench", "amenity=waste_basket", "amenity=bicycle_parking", "amenity=parking_entrance",
                "amenity=vending_machine", "amenity=grit_bin",
            ]))
        #expect(!pipeline.exclude.contains("amenity=post_box") && !pipeline.exclude.contains("amenity=toilets"))
        #expect(pipeline.dedupe.enabled && pipeline.dedupe.radius == 50)
        #expect(pipeline.dedupe.radiusByCategory.values.allSatisfy { $0 <= 200 })
        #expect(!pipeline.keepAll && pipeline.areas)
        let table = pipeline.categories
        #expect(table.category(key: "amenity", value: "cafe") == .cafe)
        #expect(table.category(key: "amenity", value: "fast_food") == .restaurant)
        #expect(table.category(key: "amenity", value: "restaurant", context: ["cuisine": "ramen"]) == .restaurant)
        #expect(table.category(key: "tourism", value: "attraction", context: ["historic": "castle"]) == .castle)
        #expect(table.category(key: "tourism", value: "attraction") == .landmark)
        #expect(table.category(key: "amenity", value: "charging_station") == .evCharger)
    }

    @Test("every category the table names is a Spots category, and each extension is used")
    func tableUsesKnownCategories() throws {
        let rules = try Pipeline.defaults().categories.rules.values.flatMap(\.values)
        let used = Set(rules.flatMap { [$0.category] + $0.conditions.map(\.category) }.compactMap { $0 })
        #expect(Category.extensions.isSubset(of: used))
    }

    @Test("a pipeline file overrides the defaults field by field; paths are relative to its folder")
    func overridesDefaults() throws {
        let pipeline = try loadPipeline(
            #"{"inputs": ["data/west.osm.gz", "/abs/east.osm"], "output": "../out/city.spots", "dedupe": {"radius": 30}}"#
        )
        let folder = URL(fileURLWithPath: pipeline.file!).deletingLastPathComponent()
        #expect(pipeline.inputs == [folder.appendingPathComponent("data/west.osm.gz").path, "/abs/east.osm"])
        #expect(pipeline.output == folder.deletingLastPathComponent().appendingPathComponent("out/city.spots").path)
        #expect(pipeline.dedupe.radius == 30 && pipeline.dedupe.enabled)
        #expect(pipeline.dedupe.radiusByCategory == (try Pipeline.defaults()).dedupe.radiusByCategory)
        #expect(pipeline.exclude == (try Pipeline.defaults()).exclude)
    }

    @Test("a pipeline may name its own category table")
    func ownTable() throws {
        let table = #"{"schema_version": 1, "tags": {"amenity": {"bench": "park"}}}"#
        let pipeline = try loadPipeline(#"{"categories": "mine.json", "exclude": []}"#, files: ["mine.json": table])
        #expect(pipeline.categories.category(key: "amenity", value: "bench") == .park)
        #expect(pipeline.categories.category(key: "amenity", value: "cafe") == nil)
        #expect(pipeline.exclude.isEmpty)
    }

    @Test(
        "invalid fields are refused with their JSON path",
        arguments: [
            (#"{"dedupe": {"radius": "far"}}"#, ".dedupe.radius", "expected a distance in metres"),
            (#"{"dedupe": {"radius": 300}}"#, ".dedupe.radius", "from 0 to 200"),
            (
                #"{"dedupe": {"radius_by_category": {"cafee": 20}}}"#, ".dedupe.radius_by_category.cafee",
                "unknown category \"cafee\""
            ),
            (#"{"dedupe": {"radius_by_category": {"zoo": 250}}}"#, ".dedupe.radius_by_category.zoo", "from 0 to 200"),
            (#"{"dedupe": {"enabled": 1}}"#, ".dedupe.enabled", "expected true or false"),
            (#"{"dedupe": {"radius": 20, "radious": 3}}"#, ".dedupe.radious", "unknown key"),
            (#"{"exclude": ["amenity=bench", "bench"]}"#, ".exclude[1]", "expected \"key=value\""),
            (#"{"exclude": "amenity=bench"}"#, ".exclude", "expected an array"),
            (#"{"inputs": [3]}"#, ".inputs[0]", "expected a string"),
            (#"{"output": ""}"#, ".output", "expected a path"),
            (#"{"keep_all": "yes"}"#, ".keep_all", "expected true or false"),
            (#"{"areas": 1}"#, ".areas", "expected true or false"),
            (#"{"frobnicate": true}"#, ".frobnicate", "unknown key"),
            (#"[1, 2]"#, ".", "expected an object"),
            (#"{"categories": "missing.json"}"#, ".categories", "cannot read the file"),
        ])
    func refusesInvalidFields(_ text: String, _ path: String, _ message: String) {
        let error = pipelineError(text)
        #expect(error?.path == path)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("JSON that does not parse is refused as a whole, naming the line and column")
    func refusesBadJSON() {
        let error = pipelineError(#"{"dedupe": {"radius": 30,}"#)
        #expect(error?.path == nil)
        #expect(error?.message.hasPrefix("not valid JSON") == true)
        let trailing = pipelineError("{\n  \"keep\": 3,\n  \"dedupe\": {\"radius\": 30,}\n}\n")
        #expect(
            trailing?.message == "not valid JSON: line 3, column 27 (in .dedupe): expected a key in double quotes")
        #expect(
            pipelineError("{\"keep\": 3,}")?.message
                == "not valid JSON: line 1, column 12: expected a key in double quotes")
    }

    @Test(
        "a category table's errors name the table's file and path",
        arguments: [
            (
                #"{"schema_version": 1, "tags": {"amenity": {"cafe": "cafee"}}}"#, ".tags.amenity.cafe",
                "unknown category \"cafee\""
            ),
            (#"{"schema_version": 2, "tags": {}}"#, ".schema_version", "unsupported version"),
            (#"{"tags": {}}"#, ".schema_version", "missing"),
            (
                #"{"schema_version": 1, "tags": {"tourism": {"attraction": {"category": "landmark", "when": [{"tag": "historic", "category": "castle"}]}}}}"#,
                ".tags.tourism.attraction.when[0].tag", "expected \"key=value\""
            ),
            (
                #"{"schema_version": 1, "tags": {"tourism": {"attraction": {"when": []}}}}"#,
                ".tags.tourism.attraction", "expected a category name"
            ),
        ])
    func refusesInvalidTables(_ table: String, _ path: String, _ message: String) {
        let error = pipelineError(#"{"categories": "t.json"}"#, files: ["t.json": table])
        #expect(error?.path == path)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("value words are read folded, each naming its key=value, from every language")
    func valueWords() throws {
        let words =
            #"{"schema_version": 1, "values": {"amenity=dentist": {"en": ["Dentist"], "de": ["Zahnärzte", "Zahnarzt"]}, "amenity=clinic": {"de": ["Zahnarzt"]}}}"#
        let pipeline = try loadPipeline(#"{"value_words": "v.json"}"#, files: ["v.json": words])
        #expect(pipeline.searchWords.values["dentist"] == ["amenity=dentist"])
        #expect(pipeline.searchWords.values["zahnarzte"] == ["amenity=dentist"])
        #expect(Set(pipeline.searchWords.values["zahnarzt"] ?? []) == ["amenity=dentist", "amenity=clinic"])
        #expect(!(try loadPipeline("{}").searchWords.values.isEmpty), "the built-in words")
    }

    @Test(
        "the built-in words, folded when the package is built, are Pipelines/' word files as read now, and their lines read back"
    )
    func builtInWords() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Pipelines")
        func json(_ name: String) throws -> JSONField {
            JSONField(
                try JSONValue(parsing: Array(try Data(contentsOf: folder.appendingPathComponent(name)))), document: name
            )
        }
        let values = try SearchWordFiles.valueWords(try json("value-words.json"))
        let read = SearchWords(
            categories: try SearchWordFiles.categoryWords(try json("category-words.json")), values: values.words,
            compounds: values.compounds)
        #expect(SearchWords.builtIn == read)
        #expect(try SearchWords(lines: read.lines, compoundLines: read.compoundLines) == read)
        #expect(read.values["pizza"] == ["cuisine=pizza"] && read.categories["cafe"] == [.cafe])
    }

    @Test(
        "cuisine words name cuisine=VALUE; compound words are one-word entries of the compounding languages, long enough"
    )
    func cuisineAndCompounds() throws {
        let words = #"""
            {"schema_version": 1, "values": {"tourism=museum": {"fi": ["Museo", "taide museo"], "en": ["museum"], "sv": ["musem"]}},
             "cuisine": {"pizza": {"fi": ["pizza", "pitsa"], "it": ["pizza"]}},
             "compounds": {"languages": ["fi", "sv"], "minimum_letters": 5}}
            """#
        let pipeline = try loadPipeline(#"{"value_words": "v.json"}"#, files: ["v.json": words])
        #expect(pipeline.searchWords.values["pizza"] == ["cuisine=pizza"])
        #expect(pipeline.searchWords.values["museo"] == ["tourism=museum"])
        #expect(
            pipeline.searchWords.compounds == [
                "museo": ["tourism=museum"], "musem": ["tourism=museum"], "pizza": ["cuisine=pizza"],
                "pitsa": ["cuisine=pizza"],
            ], "one-word entries of fi and sv of 5 letters or more: not the phrase, not English or Italian")
        #expect(SearchWords.builtIn.compounds["museo"] == ["tourism=museum"])
        #expect(SearchWords.builtIn.compounds["bar"] == nil, "too short, and English")
        #expect(pipeline.searchWords != .builtIn)
        #expect(
            try loadPipeline("{}").searchWords == .builtIn, "the defaults are the built-in words, stored in no index")
    }

    @Test(
        "a value words file's errors name the file's path",
        arguments: [
            (#"{"schema_version": 1, "values": {"dentist": {"en": ["dentist"]}}}"#, ".values.dentist", "key=value"),
            (#"{"schema_version": 1, "values": {"amenity=": {"en": ["x"]}}}"#, ".values.amenity=", "key=value"),
            (
                #"{"schema_version": 1, "values": {"amenity=dentist": {"en": ["  "]}}}"#,
                ".values.amenity=dentist.en[0]", "expected a word"
            ),
            (#"{"schema_version": 2, "values": {}}"#, ".schema_version", "unsupported version"),
            (#"{"schema_version": 1}"#, ".values", "missing"),
        ])
    func refusesInvalidValueWords(_ file: String, _ path: String, _ message: String) {
        let error = pipelineError(#"{"value_words": "v.json"}"#, files: ["v.json": file])
        #expect(error?.path == path)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }
}

@Suite("Select and categorize")
struct SelectCategorizeTests {
    func candidate(_ id: Int64, _ tag: String, context: [String: String] = [:], version: Int64 = 0) -> SpotCandidate {
        let parts = tag.split(separator: "=").map(String.init)
        return SpotCandidate(
            spot: Spot(
                ref: OSMRef(.node, id), coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)!, tagKey: parts[0],
                kind: parts[1], category: nil),
            version: version, context: context)
    }

    @Test("excluded values are dropped and counted by tag; an excluded amenity falls back to its tourism tag")
    func excludes() {
        let stage = SelectStage(keys: ["amenity", "tourism"], exclude: ["amenity=bench", "amenity=shelter"])
        let (kept, report) = stage.output(for: [
            candidate(1, "amenity=bench"), candidate(2, "amenity=cafe"), candidate(3, "amenity=bench"),
            candidate(4, "amenity=shelter", context: ["tourism": "wilderness_hut"]),
        ])
        #expect(kept.map(\.spot.ref.id) == [2, 4])
        #expect(kept[1].spot.tag == "tourism=wilderness_hut")
        #expect(report.dropped == ["excluded": 2] && report.tags["excluded"] == ["amenity=bench": 2])
    }

    @Test("an excluded tag falls back to the first later selecting key whose tag is not excluded")
    func fallsBackInKeyOrder() {
        let stage = SelectStage(
            keys: ["amenity", "shop", "leisure", "sport"], exclude: ["amenity=bench", "leisure=bleachers"])
        let (kept, _) = stage.output(for: [
            candidate(1, "amenity=bench", context: ["leisure": "bleachers", "sport": "soccer"]),
            candidate(2, "shop=vacant", context: ["leisure": "park"]),
            candidate(3, "leisure=bleachers", context: ["amenity": "bench"]),
        ])
        #expect(kept.map(\.spot.tag) == ["sport=soccer", "shop=vacant"])
    }

    @Test("unmapped values are dropped and counted, or kept with no category when asked")
    func categorizes() throws {
        let table = try Pipeline.defaults().categories
        let candidates = [
            candidate(1, "amenity=cafe"), candidate(2, "amenity=unheard_of"),
            candidate(3, "tourism=attraction", context: ["historic": "castle"]),
        ]
        let (strict, report) = CategorizeStage(table: table, keepUnmapped: false).output(for: candidates)
        #expect(strict.map(\.spot.category) == [.cafe, .castle])
        #expect(report.dropped == ["unmapped": 1] && report.tags["unmapped"] == ["amenity=unheard_of": 1])
        let (lenient, counted) = CategorizeStage(table: table, keepUnmapped: true).output(for: candidates)
        #expect(lenient.map(\.spot.category) == [.cafe, nil, .castle])
        #expect(counted.dropped.isEmpty && counted.tags["unmapped"] == ["amenity=unheard_of": 1])
    }

    @Test("normalize trims and collapses white space and removes empty attributes")
    func normalizes() {
        var input = candidate(1, "amenity=cafe")
        input.spot.name = "  Café \t Central "
        input.spot.details[.phone] = "   "
        input.spot.address["street"] = "Main\nStreet"
        let (output, report) = NormalizeStage().output(for: [input])
        #expect(output[0].spot.name == "Café Central" && output[0].spot.details.isEmpty)
        #expect(output[0].spot.address == ["street": "Main Street"])
        #expect(report.tags["empty_attributes"] == ["phone": 1])
    }
}
