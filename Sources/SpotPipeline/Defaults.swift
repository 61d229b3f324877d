/// The pipeline files compiled into the program (Pipelines/ at build time).
enum Defaults {
    static var pipeline: String { EmbeddedFiles.contents["default.json"]! }
    static var categories: String { EmbeddedFiles.contents["categories.json"]! }
    static var categoryWords: String { EmbeddedFiles.contents["category-words.json"]! }
}
