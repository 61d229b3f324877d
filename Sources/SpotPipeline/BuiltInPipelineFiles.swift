/// The files of Pipelines/ compiled into the program by the EmbedFiles build plugin: the
/// default pipeline and the category table it names, so that the binary works anywhere (the
/// word files it names are SpotIndex's: `SearchWords.builtIn`).
enum BuiltInPipelineFiles {
    /// Pipelines/default.json: every field a pipeline file may leave out.
    static var defaultPipeline: String { file("default.json") }
    /// Pipelines/categories.json: the tag-to-category table.
    static var categories: String { file("categories.json") }

    /// The embedded file `name`; the plugin embeds every file of Pipelines/, so its absence is
    /// a build mistake, not an input error.
    private static func file(_ name: String) -> String {
        guard let text = EmbeddedFiles.contents[name] else { fatalError("Pipelines/\(name) was not embedded") }
        return text
    }
}
