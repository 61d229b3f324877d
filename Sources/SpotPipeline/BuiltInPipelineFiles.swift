/// The files of Pipelines/ compiled into the program by the EmbedPipelines build plugin: the
/// default pipeline and the data files it names, so that the binary works anywhere.
enum BuiltInPipelineFiles {
    /// Pipelines/default.json: every field a pipeline file may leave out.
    static var defaultPipeline: String { file("default.json") }
    /// Pipelines/categories.json: the tag-to-category table.
    static var categories: String { file("categories.json") }
    /// Pipelines/category-words.json: the query words that name categories.
    static var categoryWords: String { file("category-words.json") }
    /// Pipelines/value-words.json: the query words that name OSM values, in 20 languages.
    static var valueWords: String { file("value-words.json") }

    /// The embedded file `name`; the plugin embeds every file of Pipelines/, so its absence is
    /// a build mistake, not an input error.
    private static func file(_ name: String) -> String {
        guard let text = EmbeddedFiles.contents[name] else { fatalError("Pipelines/\(name) was not embedded") }
        return text
    }
}
