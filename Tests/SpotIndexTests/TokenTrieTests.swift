import Foundation
import SeededRandom
import SpotIndex
import SpotTestSupport
import Spots
import Testing

/// The token trie (`SpotIndexReader.tokenTrie`) against the sorted list of tokens: every node,
/// walked in preorder, spells a prefix of the tokens it covers and covers every token that starts
/// with that prefix, its children in order; at block boundaries and at the end of a last block
/// that is full or not.
@Suite("Token trie")
struct TokenTrieTests {
    @Test(
        "each node covers the tokens that start with its path, in order, and says whether its path is one",
        arguments: [1, 15, 16, 17, 300])
    func againstTheList(spotCount: Int) throws {
        var random = SplitMix64(seed: UInt64(spotCount))
        let letters = Array("abcä日")
        func word() -> String {
            String((0..<Int.random(in: 1...5, using: &random)).map { _ in letters.randomElement(using: &random)! })
        }
        let spots = (0..<spotCount).map { number in
            Spot(
                ref: OSMRef(.node, Int64(number)), coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)!,
                tagKey: "amenity", kind: "cafe", category: .cafe, name: word())
        }
        let index = try openIndex(of: spots)
        let tokens = try (0..<index.tokenCount).map { try index.token($0) }
        let scalars = tokens.map { String(decoding: $0, as: UTF8.self).unicodeScalars.map(\.value) }
        let trie = try index.tokenTrie()
        #expect(trie.items(ScalarTrie.root) == tokens.indices)
        #expect(trie.subtreeEnd(ScalarTrie.root) == trie.nodeCount)
        // Preorder: each node's path is its parent's and its letter; its children follow it.
        var paths: [[UInt32]] = [[]]
        var open = [trie.nodeCount]
        for node in 1..<trie.nodeCount {
            while node >= open.last! {
                open.removeLast()
                paths.removeLast()
            }
            let path = paths.last! + [trie.letter(node)]
            let covered = scalars.indices.filter { scalars[$0].starts(with: path) }
            #expect(trie.items(node) == (covered.first ?? 0)..<((covered.last ?? -1) + 1), "\(path)")
            #expect(trie.isItem(node) == (scalars[trie.items(node).lowerBound] == path), "\(path)")
            #expect(trie.subtreeEnd(node) > node && trie.subtreeEnd(node) <= open.last!)
            let below = scalars[trie.items(node)].flatMap { $0.dropFirst(path.count - 1) }
            #expect(trie.blocks(node) == below.reduce(0) { $0 | ScalarTrie.block(of: $1) }, "its letter's and below")
            open.append(trie.subtreeEnd(node))
            paths.append(path)
        }
        let nodes = Set(scalars.flatMap { token in (1...token.count).map { Array(token.prefix($0)) } })
        #expect(trie.nodeCount == nodes.count + 1, "one node a distinct prefix, and the root")
    }
}
