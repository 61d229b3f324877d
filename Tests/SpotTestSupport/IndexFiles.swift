import SpotCluster
import SpotIndex
import SpotIndexWriting
import SpotText
import Spots

extension IndexMetadata {
    /// The metadata of an index the tests write: generator "tests" and nothing else.
    public static var tests: IndexMetadata {
        IndexMetadata(generator: "tests", buildTime: nil, inputs: [], bbox: nil, statistics: [:])
    }
}

/// The index `bytes` opened as a file: written to a temporary file, mapped, and the file removed
/// (the mapping stays).
public func openIndex(_ bytes: [UInt8]) throws -> SpotIndexReader {
    try withTemporaryFile(bytes) { path in try SpotIndexReader(path: path) }
}

/// An index of `spots` with `metadata`, `categoryWords`, `valueWords` and `compoundWords`
/// (`SearchWords`; none by default, not the built-in words), and cluster levels
/// made with `clusters` when given, opened as a file.
public func openIndex(
    of spots: [Spot], metadata: IndexMetadata = .tests, categoryWords: [String: [Category]] = [:],
    valueWords: [String: [String]] = [:], compoundWords: [String: [String]] = [:],
    clusters: ClusterSettings? = nil
) throws -> SpotIndexReader {
    try openIndex(
        SpotIndexWriter.encode(
            spots, metadata: metadata,
            words: SearchWords(categories: categoryWords, values: valueWords, compounds: compoundWords),
            clusters: clusters))
}
