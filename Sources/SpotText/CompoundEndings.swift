/// How a name word meets the compound words of `SearchWords`: a folded name word that ends
/// with a compound word, and is longer than it, names that word's targets ("taidemuseo" ends
/// with "museo", so it names `tourism=museum`), in the languages that compound.
public struct CompoundEndings: Sendable {
    /// Each compound word, as UTF-8, with the targets it names.
    private let targets: [[UInt8]: [String]]
    /// The lengths in bytes of the compound words.
    private let lengths: Set<Int>

    /// The endings of `words`' compound words.
    public init(_ words: SearchWords) {
        var targets: [[UInt8]: [String]] = [:]
        for (word, names) in words.compounds { targets[Array(word.utf8), default: []] += names }
        self.targets = targets
        lengths = Set(targets.keys.map(\.count))
    }

    /// Whether there are no compound words.
    public var isEmpty: Bool { targets.isEmpty }

    /// The targets that the folded name word `word` (UTF-8) names by its endings.
    public func targets(ofNameWord word: [UInt8]) -> [String] {
        lengths.filter { $0 < word.count }.flatMap { targets[Array(word.suffix($0))] ?? [] }
    }
}
