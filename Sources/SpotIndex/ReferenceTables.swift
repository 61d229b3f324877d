import Spots

/// The spots in the order of their own OSM references (REFS; FORMAT.md): entry *r* is the spot
/// of reference rank *r*, in an `OrderTable`.
///
/// Opening checks that there is one entry per spot, so a rank below the spot count names an
/// entry inside the section; each entry is checked as it is read.
struct ReferenceOrder {
    private let entries: OrderTable

    /// The order in `bytes`, for an index of `spotCount` spots.
    init(_ bytes: SectionBytes, spotCount: Int) throws(IndexError) {
        entries = try OrderTable(bytes, count: spotCount, listing: "every spot")
    }

    /// The spot with reference rank `rank` (0 ..< the spot count).
    @inline(__always)
    func spot(atRank rank: Int) throws(IndexError) -> Int {
        let spot = entries.number(at: rank)
        guard spot < entries.count else { throw entries.corrupt("points past the last spot") }
        return spot
    }

    /// The rank whose spot's reference is `ref`, found by a binary search that reads references
    /// with `refOfSpot`; nil when no spot has it as its own.
    func rank(of ref: OSMRef, refOfSpot: (Int) throws(IndexError) -> OSMRef) throws(IndexError) -> Int? {
        try firstPosition(of: ref, among: entries.count) { (rank) throws(IndexError) in
            try refOfSpot(try spot(atRank: rank))
        }
    }
}

/// The references folded into spots by deduplication (MERG; FORMAT.md), 16 bytes each, sorted
/// by spot, and their order by reference (MRGO, an `OrderTable`).
///
/// Opening checks the lengths: whole records, and one MRGO entry per MERG record. Each type
/// code, spot number and position is checked as it is read.
struct MergedReferences {
    private let records: RecordTable
    private let order: OrderTable
    private let spotCount: Int

    /// The references in `merged` and their order in `order`, for an index of `spotCount` spots.
    init(merged: SectionBytes, order: SectionBytes, spotCount: Int) throws(IndexError) {
        records = try RecordTable(merged, recordSize: IndexLayout.refRecordSize)
        self.order = try OrderTable(order, count: records.count, listing: "every merged reference")
        self.spotCount = spotCount
    }

    /// The references merged into spot `spot`: a binary search by spot number and a short scan.
    func refs(mergedInto spot: Int) throws(IndexError) -> [OSMRef] {
        var low = 0
        var high = records.count
        while low < high {
            let middle = (low + high) / 2
            if self.spot(ofRecord: middle) < spot { low = middle + 1 } else { high = middle }
        }
        var result: [OSMRef] = []
        while low < records.count && self.spot(ofRecord: low) == spot {
            result.append(try ref(ofRecord: low))
            low += 1
        }
        return result
    }

    /// The spot that `ref` was merged into, found by a binary search of MRGO; nil when none.
    func spot(holding ref: OSMRef) throws(IndexError) -> Int? {
        let found = try firstPosition(of: ref, among: order.count) { (position) throws(IndexError) in
            try self.ref(ofRecord: try record(atPosition: position))
        }
        guard let found else { return nil }
        let spot = self.spot(ofRecord: try record(atPosition: found))
        guard spot < spotCount else { throw records.bytes.corrupt("reference points past the last spot") }
        return spot
    }

    /// The MERG record at `position` of the reference order (MRGO).
    private func record(atPosition position: Int) throws(IndexError) -> Int {
        let record = order.number(at: position)
        guard record < records.count else { throw order.corrupt("points past the last merged reference") }
        return record
    }

    /// The spot number that MERG record `record` holds, as stored.
    private func spot(ofRecord record: Int) -> Int {
        Int(records.field(at: 12, of: record) as UInt32)
    }

    /// The reference of MERG record `record`.
    private func ref(ofRecord record: Int) throws(IndexError) -> OSMRef {
        let code: UInt8 = records.field(at: 8, of: record)
        guard let type = OSMType(rawValue: code) else { throw records.bytes.corrupt("reference has OSM type \(code)") }
        return OSMRef(type, records.field(at: 0, of: record))
    }
}

/// The first of positions `0 ..< count`, sorted by the references `refAt` reads, whose
/// reference is `ref`: a binary search; nil when none is.
private func firstPosition(
    of ref: OSMRef, among count: Int, refAt: (Int) throws(IndexError) -> OSMRef
) throws(IndexError) -> Int? {
    var low = 0
    var high = count
    while low < high {
        let middle = (low + high) / 2
        if try refAt(middle) < ref { low = middle + 1 } else { high = middle }
    }
    guard low < count, try refAt(low) == ref else { return nil }
    return low
}

/// An order table (REFS, MRGO): `count` numbers, each little-endian in
/// `IndexLayout.orderEntrySize(count:)` bytes. Opening checks the length; a number read is
/// below 2^(8 × width), and its reader checks it against what it numbers.
private struct OrderTable {
    private let entries: RecordTable

    /// The table in `bytes` of `count` numbers; throws unless it is exactly that long, saying
    /// that it does not list `listing` once.
    init(_ bytes: SectionBytes, count: Int, listing: String) throws(IndexError) {
        entries = try RecordTable(bytes, recordSize: IndexLayout.orderEntrySize(count: count))
        guard entries.count == count else { throw bytes.corrupt("does not list \(listing) once") }
    }

    /// How many numbers there are.
    var count: Int { entries.count }

    /// The number at `position` (0 ..< `count`).
    @inline(__always)
    func number(at position: Int) -> Int {
        switch entries.recordSize {
        case 1: Int(entries.field(at: 0, of: position) as UInt8)
        case 2: Int(entries.field(at: 0, of: position) as UInt16)
        case 3:
            Int(entries.field(at: 0, of: position) as UInt16) | Int(entries.field(at: 2, of: position) as UInt8) << 16
        default: Int(entries.field(at: 0, of: position) as UInt32)
        }
    }

    /// A corrupt-section error naming the table.
    func corrupt(_ message: String) -> IndexError { entries.bytes.corrupt(message) }
}
