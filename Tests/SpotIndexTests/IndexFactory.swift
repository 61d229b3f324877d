import SpotIndex
import SpotTestSupport
import SpotText
import Spots

extension SpotFactory {
    /// Random category words, folded as the build folds them (`SearchText.words`), each naming 1
    /// to 3 categories.
    mutating func categoryWords() -> [String: [Category]] {
        var words: [String: [Category]] = [:]
        for _ in 0..<int(0...6) {
            guard let word = SearchText.words(string(maxPieces: 3)).first else { continue }
            words[word] = (0..<int(1...3)).map { _ in pick(Category.allCases) }
        }
        return words
    }

    /// Metadata for an index of `count` spots: a random generator name and inputs, and statistics
    /// at the edges of their types.
    mutating func metadata(count: Int) -> IndexMetadata {
        IndexMetadata(
            generator: "spots 0.1.0 " + string(), buildTime: chance(50) ? "2021-04-01T00:00:00Z" : nil,
            inputs: (0..<int(0...3)).map { _ in
                IndexMetadata.Input(name: string() + ".osm.gz", bytes: int(0...Int(Int32.max)))
            },
            bbox: count == 0 ? nil : .world,
            statistics: [
                "nodes": int(0...1_000_000), "deleted_elements": int(0...10), "spots": count,
                "xml_bytes": Int(UInt32.max) * 3,
            ])
    }
}

/// What `categoryWords()` gives back for words written as `words`: each list sorted by name.
func storedCategoryWords(_ words: [String: [Category]]) -> [String: [Category]] {
    words.mapValues { $0.sorted { $0.rawValue < $1.rawValue } }
}
