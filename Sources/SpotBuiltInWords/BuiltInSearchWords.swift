import SpotText

extension SearchWords {
    /// The words of Pipelines/category-words.json and value-words.json, folded when the package
    /// was built (the EmbedFiles plugin runs the fold-words tool) and compiled into this
    /// target: what an index built with them reads, since it does not store them (FORMAT.md,
    /// `WORD`). They are a target of their own, about 320 KB, so that an app that reads an index
    /// without searching its text does not carry them.
    public static let builtIn: SearchWords = {
        do throws(SearchWords.LineError) {
            return try SearchWords(lines: BuiltInWords.lines, compoundLines: BuiltInWords.compoundLines)
        } catch {
            fatalError("the built-in words were not folded into lines: \(error.message)")
        }
    }()
}
