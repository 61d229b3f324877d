import Foundation
import SeededRandom
import SpotText
import Spots

@testable import SpotPipeline

/// Duplicates of real spots, made as issue 26 describes them: a twin is the same place mapped
/// again 5 to 35 m away, its tags the same but its name, written another way (`Kind`); a
/// control is another place that must stay apart (a branch 250 to 450 m away, a same-name
/// place of another category 5 to 35 m away).
///
/// They are made of the `isolated` spots alone, those that share no name (`NameKey`, word set)
/// with another spot within a kilometre, and a twin must share none with another spot than its
/// original: near a namesake, which place a copy is a copy of is not known (a twin of one
/// "Aparcament clients" may lie inside the other's area; "du Rocher" made of "Pharmacie du
/// Rocher" is the name of the "Durocher" next door), so a merge could not be scored.
struct TwinPlaces {
    /// How a twin's name differs from its original's.
    enum Kind: String, CaseIterable, Sendable {
        case genericWord = "a generic word added or dropped"
        case ampersand = "\"&\" against \"and\""
        case localName = "the name only in name:xx"
        case wordOrder = "two words in the other order"
    }

    /// A made spot and the original it copies.
    struct Copy {
        var candidate: SpotCandidate
        let original: OSMRef
    }

    let names: DedupeNames
    /// The spots with a name, in order, and by the keys of their names.
    private let named: [SpotCandidate]
    private let holders: [String: [SpotCandidate]]
    /// Per category, its generic word that the extract's names use most, to add to names.
    private let commonGenericWord: [String: String]
    private var nextID: Int64 = 1 << 40

    /// Twins for the named spots of `originals`, generic words as `names` has them.
    init(originals: [SpotCandidate], names: DedupeNames) {
        self.names = names
        var uses: [String: [String: Int]] = [:]
        for candidate in originals {
            guard let name = candidate.spot.name else { continue }
            let generic = Self.generic(candidate, names)
            for word in SearchText.words(name) where generic.contains(word) {
                uses[candidate.spot.tag, default: [:]][word, default: 0] += 1
            }
        }
        named = originals.filter { $0.spot.name != nil }.sorted { $0.spot.ref < $1.spot.ref }
        var holders: [String: [SpotCandidate]] = [:]
        for candidate in named {
            for key in Self.nameKeys(candidate, names) { holders[key, default: []].append(candidate) }
        }
        self.holders = holders
        commonGenericWord = uses.mapValues { counts in counts.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key }
    }

    /// The keys of a spot's names (`NameKey`, every word set), which a namesake shares.
    private static func nameKeys(_ candidate: SpotCandidate, _ names: DedupeNames) -> Set<String> {
        let compared = names.compared(candidate)
        return Set(compared.wordSets.all + [compared.exactKey].compactMap { $0 })
    }

    /// Whether a spot of `names` other than `original` and within a kilometre of `candidate`
    /// holds one of `candidate`'s name keys.
    private func hasNamesake(_ candidate: SpotCandidate, besides original: OSMRef) -> Bool {
        Self.nameKeys(candidate, names).contains { key in
            (holders[key] ?? []).contains {
                $0.spot.ref != original && $0.spot.coordinate.distance(to: candidate.spot.coordinate) < 1000
            }
        }
    }

    private static func generic(_ candidate: SpotCandidate, _ names: DedupeNames) -> GenericWords {
        names.genericWords(category: candidate.spot.category, tag: candidate.spot.tag)
    }

    /// The named spots with no namesake within a kilometre, in order.
    var isolated: [SpotCandidate] { named.filter { !hasNamesake($0, besides: $0.spot.ref) } }

    /// A twin of `original` whose name differs as `kind` says, or nil when its name cannot.
    mutating func twin(of original: SpotCandidate, kind: Kind) -> Copy? {
        guard let name = original.spot.name, let twinName = renamed(name, kind: kind, for: original) else { return nil }
        var twin = copy(of: original, metres: 5...35)
        if kind == .localName {
            twin.candidate.spot.name = nil
            twin.candidate.spot.names["en"] = name
        } else {
            twin.candidate.spot.name = twinName
        }
        return hasNamesake(twin.candidate, besides: original.spot.ref) ? nil : twin
    }

    /// A branch of `original`: the same tags 250 to 450 m away.
    mutating func branch(of original: SpotCandidate) -> Copy { copy(of: original, metres: 250...450) }

    /// A place of another category with `original`'s name, 5 to 35 m away.
    mutating func otherCategory(of original: SpotCandidate) -> Copy {
        var other = copy(of: original, metres: 5...35)
        let category: Category = original.spot.category == .pharmacy ? .bank : .pharmacy
        other.candidate.spot.category = category
        other.candidate.spot.tagKey = "amenity"
        other.candidate.spot.kind = category.rawValue
        return other
    }

    private func renamed(_ name: String, kind: Kind, for original: SpotCandidate) -> String? {
        let words = name.split(separator: " ").map(String.init)
        switch kind {
        case .genericWord:
            let generic = Self.generic(original, names)
            let isGeneric = words.map { generic.contains(SearchText.words($0).joined()) }
            if let first = isGeneric.firstIndex(of: true), isGeneric.contains(false) {
                return words.enumerated().filter { $0.offset != first }.map(\.element).joined(separator: " ")
            }
            guard !isGeneric.contains(true), let word = commonGenericWord[original.spot.tag] else { return nil }
            let added = word.prefix(1).uppercased() + word.dropFirst()
            return original.spot.ref.id % 2 == 0 ? name + " " + added : added + " " + name
        case .ampersand:
            if let position = words.firstIndex(of: "&") {
                return words.enumerated().map { $0.offset == position ? "and" : $0.element }.joined(separator: " ")
            }
            guard let position = words.firstIndex(where: { AndWords.words.contains($0.lowercased()) }),
                position > 0, position < words.count - 1
            else { return nil }
            return words.enumerated().map { $0.offset == position ? "&" : $0.element }.joined(separator: " ")
        case .localName:
            return name
        case .wordOrder:
            guard words.count == 2, words[0] != words[1] else { return nil }
            return words[1] + " " + words[0]
        }
    }

    /// A copy of `original` with a new id, moved `metres` away in a direction of its own.
    private mutating func copy(of original: SpotCandidate, metres: ClosedRange<Double>) -> Copy {
        var random = SplitMix64(seed: UInt64(bitPattern: original.spot.ref.id) &+ UInt64(nextID))
        let bearing = Double.random(in: 0..<(2 * Double.pi), using: &random)
        let distance = Double.random(in: metres, using: &random)
        let metresPerDegree = Coordinate.earthRadius * Double.pi / 180
        let point = original.spot.coordinate
        let latitude = point.latitude + distance * cos(bearing) / metresPerDegree
        let longitude = point.longitude + distance * sin(bearing) / (metresPerDegree * cos(point.latitude * .pi / 180))
        var candidate = original
        candidate.area = nil
        candidate.spot.ref = OSMRef(.node, nextID)
        candidate.spot.merged = []
        candidate.spot.coordinate = Coordinate(
            latitudeE7: Int32((latitude * 1e7).rounded()), longitudeE7: Int32((longitude * 1e7).rounded()))!
        nextID += 1
        return Copy(candidate: candidate, original: original.spot.ref)
    }
}
