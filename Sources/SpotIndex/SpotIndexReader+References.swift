import Spots

/// Looking spots up by OSM reference (REFS, MERG, MRGO), and reference order.
extension SpotIndexReader {
    /// The number of the spot that holds `ref`: its own, or one merged into it; nil when none.
    /// Binary searches: logarithmic in the number of references.
    public func spotNumber(for ref: OSMRef) throws(IndexError) -> Int? {
        if let own = try search(ref, in: refs, entryRef: { (rank) throws(IndexError) in try self.ref(at: self.spot(atRank: rank)) }) {
            return try spot(atRank: own)
        }
        guard let position = try search(ref, in: mergedOrder, entryRef: { (position) throws(IndexError) in try entryRef(merged, mergedPosition(position)) })
        else { return nil }
        let spot = Int(merged.load(try mergedPosition(position) * IndexLayout.refRecordSize + 12) as UInt32)
        guard spot < count else { throw corrupt("MERG", "reference points past the last spot") }
        return spot
    }

    /// Calls `body` with each spot in the order of its own OSM reference (type, then id), while
    /// `body` returns true.
    public func forEachSpotInReferenceOrder(_ body: (Int) throws -> Bool) throws {
        for rank in 0..<count {
            if try !body(try spot(atRank: rank)) { return }
        }
    }

    /// The position in `order` (entries of 4 bytes) whose reference is `ref`, by binary search.
    private func search(
        _ ref: OSMRef, in order: UnsafeRawBufferPointer, entryRef: (Int) throws(IndexError) -> OSMRef
    ) throws(IndexError) -> Int? {
        var low = 0
        var high = order.count / IndexLayout.orderEntrySize
        while low < high {
            let middle = (low + high) / 2
            if try entryRef(middle) < ref { low = middle + 1 } else { high = middle }
        }
        guard low < order.count / IndexLayout.orderEntrySize, try entryRef(low) == ref else { return nil }
        return low
    }

    /// The spot with reference rank `rank`: the spot at that position in the order of the
    /// spots' own OSM references (REFS).
    public func spot(atRank rank: Int) throws(IndexError) -> Int {
        precondition(rank >= 0 && rank < count, "rank out of range")
        let spot = Int(refs.load(rank * IndexLayout.orderEntrySize) as UInt32)
        guard spot < count else { throw corrupt("REFS", "points past the last spot") }
        return spot
    }

    /// The MERG entry at `position` of the merged reference order (MRGO).
    private func mergedPosition(_ position: Int) throws(IndexError) -> Int {
        let entry = Int(mergedOrder.load(position * IndexLayout.orderEntrySize) as UInt32)
        guard entry < merged.count / IndexLayout.refRecordSize else { throw corrupt("MRGO", "points past the last merged reference") }
        return entry
    }

    /// The references merged into spot `spot` (its `merged`), without reading the rest of it.
    public func mergedRefs(of spot: Int) throws(IndexError) -> [OSMRef] {
        let entries = merged.count / IndexLayout.refRecordSize
        func spotOf(_ entry: Int) -> Int { Int(merged.load(entry * IndexLayout.refRecordSize + 12) as UInt32) }
        var low = 0
        var high = entries
        while low < high {
            let middle = (low + high) / 2
            if spotOf(middle) < spot { low = middle + 1 } else { high = middle }
        }
        var result: [OSMRef] = []
        while low < entries && spotOf(low) == spot {
            result.append(try entryRef(merged, low))
            low += 1
        }
        return result
    }

    private func entryRef(_ table: UnsafeRawBufferPointer, _ entry: Int) throws(IndexError) -> OSMRef {
        let offset = entry * IndexLayout.refRecordSize
        let code: UInt8 = table.load(offset + 8)
        guard let type = OSMType(rawValue: code) else { throw corrupt("MERG", "reference has OSM type \(code)") }
        return OSMRef(type, table.load(offset))
    }
}
