import SpotIndex
import SpotText
import Spots

/// A string as its UTF-8 bytes, equal to another only when the bytes are: Swift's String
/// equality would merge canonically equivalent spellings ("é" and "e" + U+0301), and the index
/// keeps text exactly as OSM spells it. Hashed in one call over the bytes, where an array of
/// bytes is hashed byte by byte.
struct ByteString: Hashable {
    let bytes: [UInt8]

    init(_ string: String) { bytes = Array(string.utf8) }

    init(bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}

/// Gathers the distinct strings of KIND and ATTR, told apart by their bytes (`ByteString`).
struct StringCollector {
    private var strings: Set<ByteString> = []

    mutating func insert(_ string: String) { strings.insert(ByteString(string)) }

    /// The strings numbered in the order of their bytes, as STRS stores them.
    func sortedPool() -> StringPool { StringPool(strings.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }) }
}

/// The string pool: distinct strings numbered in the order of their bytes.
struct StringPool {
    private let strings: [[UInt8]]
    private let numbers: [ByteString: UInt32]

    init(_ sorted: [[UInt8]]) {
        strings = sorted
        numbers = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { (ByteString(bytes: $1), UInt32($0)) })
    }

    /// The number of `string`, which the collector saw.
    func index(of string: String) -> UInt32 { numbers[ByteString(string)]! }

    /// The STRS section.
    func encoded() -> [UInt8] { StringTableWriter.encode(strings, blockSize: IndexLayout.poolBlockSize) }
}

/// Encodes a string table (STRS, TOKN; FORMAT.md, "String tables").
enum StringTableWriter {
    /// The table of `strings`, distinct and sorted by their bytes: in blocks of `blockSize`, each string after
    /// the first of its block stored as the length of the prefix it shares with the one before
    /// and the rest; the rests byte-pair coded.
    static func encode(_ strings: [[UInt8]], blockSize: Int) -> [UInt8] {
        let rests = strings.indices.map { index -> (shared: Int, rest: [UInt8]) in
            guard index % blockSize != 0 else { return (0, strings[index]) }
            let shared = zip(strings[index - 1], strings[index]).prefix { $0 == $1 }.count
            return (shared, Array(strings[index][shared...]))
        }
        let code = BytePairCode(training: rests.map(\.rest))
        var section = ByteWriter()
        section.append(UInt32(strings.count))
        section.append(UInt32(blockSize))
        section.append(UInt32(code.pairs.count))
        for pair in code.pairs { section.append([pair.code, pair.left, pair.right]) }
        section.pad(to: 4)
        var entries = ByteWriter()
        for (index, entry) in rests.enumerated() {
            if index % blockSize == 0 { section.append(UInt32(entries.bytes.count)) }
            let coded = code.encode(entry.rest)
            entries.appendVarint(UInt32(entry.shared))
            entries.appendVarint(UInt32(coded.count))
            entries.append(coded)
        }
        section.append(entries.bytes)
        return section.bytes
    }
}

/// Each distinct (selecting key, value, category) once: a spot stores a 16-bit kind number.
struct KindTable {
    private var numbers: [[UInt32]: UInt16] = [:]
    /// Each kind's key, value and category string numbers, then its result type's code.
    private var kinds: [[UInt32]] = []
    /// The kind number of each spot, by spot number, as given out.
    private var spotKinds: [UInt16] = []

    var count: Int { kinds.count }

    /// The kind number of `spot`, the next spot in spot order.
    mutating func number(of spot: Spot, pool: StringPool) -> UInt16 {
        let kind = [
            pool.index(of: spot.tagKey), pool.index(of: spot.kind),
            spot.category.map { pool.index(of: $0.rawValue) } ?? IndexLayout.noString,
            UInt32(ResultTypeCode.code(of: spot.resultType)),
        ]
        let number: UInt16
        if let known = numbers[kind] {
            number = known
        } else {
            precondition(kinds.count < Int(UInt16.max), "more than 65,535 distinct selecting tags")
            number = UInt16(kinds.count)
            numbers[kind] = number
            kinds.append(kind)
        }
        spotKinds.append(number)
        return number
    }

    /// The kind number given to spot `spot`.
    func number(ofSpot spot: Int) -> Int { Int(spotKinds[spot]) }

    /// The KIND section.
    func encoded() -> [UInt8] {
        var writer = ByteWriter()
        for kind in kinds { for value in kind.prefix(3) { writer.append(value) } }
        return writer.bytes
    }

    /// The KTYP section, or nil when every kind is a point of interest (an index without it
    /// reads so, and the indexes of the default selection stay as they were).
    func encodedResultTypes() -> [UInt8]? {
        let codes = kinds.map { UInt8($0[3]) }
        return codes.allSatisfy({ $0 == ResultTypeCode.code(of: .pointOfInterest) }) ? nil : codes
    }
}

/// Collects name tokens and the spots (by reference rank) they belong to, for TOKN and POST.
///
/// Each token's entries are kept as added, a rank and a key each, and sorted out once at the
/// end (`keysByRank`): a spot meets a token in several of its names, and looking its keys up
/// again at every entry cost more than all the rest of the writer's loop.
struct TextIndexBuilder {
    /// The distinct tokens, numbered as first met.
    private var numbers: [ByteString: Int] = [:]
    private var tokens: [[UInt8]] = []
    /// For each token number, every (rank, key) added, in the order added.
    private var entries: [[(rank: Int, key: PostingGroup.Key)]] = []

    /// The tokens of a spot whose quality scores `score` and whose searched address is
    /// `address`, each with the key it is listed under:
    /// each name's tokens in the name's field, and its address's words in the address field,
    /// where a token's place says nothing (the address level is one level), so any name that
    /// holds the token beats it. A function of the spot alone, so worked out for every spot at
    /// once (`SpotIndexWriter`).
    static func tokens(
        of spot: Spot, address: SearchAddress, score: Int
    ) -> [(token: String, key: PostingGroup.Key)] {
        var tokens: [(token: String, key: PostingGroup.Key)] = []
        for (key, name) in spot.namesByKey {
            let field = NameField(ofKey: key)
            for (token, place) in SearchText.tokens(ofName: name) {
                tokens.append((token, PostingGroup.Key(place: place, field: field, score: score)))
            }
        }
        for word in address.words {
            tokens.append((word, PostingGroup.Key(place: .inName, field: .address, score: score)))
        }
        return tokens
    }

    /// Adds `tokens` (`tokens(of:address:score:)`) of the spot of rank `rank`.
    mutating func add(_ tokens: [(token: String, key: PostingGroup.Key)], rank: Int) {
        for (token, key) in tokens { add(key, token: token, rank: rank) }
    }

    private mutating func add(_ key: PostingGroup.Key, token: String, rank: Int) {
        let token = ByteString(token)
        if let number = numbers[token] {
            entries[number].append((rank, key))
        } else {
            numbers[token] = tokens.count
            tokens.append(token.bytes)
            entries.append([(rank, key)])
        }
    }

    /// The spots that hold token `number`, by rank, each with the keys under which it is listed
    /// for the token: each place and name field its names give it that no other of them beats
    /// in both (at most one per name field), so that every level a query can reach has the
    /// spot's best field listed. A spot's keys share its score, so which beats which does not
    /// depend on the order they came in.
    private func keysByRank(_ number: Int) -> [(rank: Int, keys: [PostingGroup.Key])] {
        var byRank: [(rank: Int, keys: [PostingGroup.Key])] = []
        for (rank, key) in entries[number].sorted(by: { $0.rank < $1.rank }) {
            if byRank.last?.rank != rank { byRank.append((rank, [])) }
            let keys = byRank[byRank.count - 1].keys
            guard !keys.contains(where: { $0.place <= key.place && $0.field <= key.field }) else { continue }
            byRank[byRank.count - 1].keys = keys.filter { !($0.place >= key.place && $0.field >= key.field) } + [key]
        }
        return byRank
    }

    /// The distinct tokens, by number (the number `nameRanks(ofToken:)` takes).
    var tokensByNumber: [[UInt8]] { tokens }

    /// The reference ranks of the spots whose names (not addresses) hold token `number`.
    func nameRanks(ofToken number: Int) -> Set<Int> {
        Set(entries[number].lazy.filter { $0.key.field != .address }.map(\.rank))
    }

    /// The distinct tokens, sorted by their UTF-8 bytes.
    var sortedTokens: [[UInt8]] { tokens.sorted { $0.lexicographicallyPrecedes($1) } }

    /// The POST section: token count, block size, where each block's entries start, then for
    /// each token its groups (FORMAT.md, "TOKN and POST"): the group count, then per group its
    /// key, the length in bytes of its rank list and the list, best group first.
    func postings() -> [UInt8] {
        let order = tokens.indices.sorted { tokens[$0].lexicographicallyPrecedes(tokens[$1]) }
        var section = ByteWriter()
        section.append(UInt32(order.count))
        section.append(UInt32(IndexLayout.postingBlockSize))
        var encodedLists = ByteWriter()
        for (index, number) in order.enumerated() {
            if index % IndexLayout.postingBlockSize == 0 { section.append(UInt32(encodedLists.bytes.count)) }
            var groups: [PostingGroup.Key: [Int]] = [:]
            for (rank, keys) in keysByRank(number) {
                for key in keys { groups[key, default: []].append(rank) }
            }
            encodedLists.appendVarint(UInt32(groups.count))
            for key in groups.keys.sorted() {
                var ranks = ByteWriter()
                ranks.appendRankList(groups[key]!.sorted())
                encodedLists.appendVarint(key.rawValue)
                encodedLists.appendVarint(UInt32(ranks.bytes.count))
                encodedLists.append(ranks.bytes)
            }
        }
        section.append(encodedLists.bytes)
        return section.bytes
    }
}
