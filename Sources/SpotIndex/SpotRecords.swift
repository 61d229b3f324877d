import Spots

/// The spot records (SPOT; FORMAT.md): 20 bytes per spot, its number its position, holding its
/// coordinate, kind number, OSM reference and where its attributes start.
///
/// Opening checks only the length, a whole number of records: a spot number below `count` then
/// names a record inside the section, read without a further bounds check (`RecordTable`).
/// Every field is checked as it is read, so damage to a record shows when that spot is read.
struct SpotRecords {
    /// How many spots there are.
    let count: Int
    /// How many kinds the index has (KIND): a spot's kind number must be below it.
    let kindCount: Int
    private let records: RecordTable

    /// The records of `bytes`, for an index of `kindCount` kinds.
    init(_ bytes: SectionBytes, kindCount: Int) throws(IndexError) {
        records = try RecordTable(bytes, recordSize: IndexLayout.spotRecordSize)
        count = records.count
        self.kindCount = kindCount
    }

    /// Field `field` of spot `spot`'s record, unchecked but for its bounds (`RecordTable`).
    @inline(__always)
    private func field<Value: FixedWidthInteger>(_ field: SpotRecordField, of spot: Int) -> Value {
        records.field(at: field.rawValue, of: spot)
    }

    /// The latitude and longitude stored for spot `spot`, unchecked: for a hot loop that compares
    /// them with a box before it checks them (`coordinate(of:)`).
    @inline(__always)
    func storedPoint(of spot: Int) -> (latitudeE7: Int32, longitudeE7: Int32) {
        (field(.latitude, of: spot), field(.longitude, of: spot))
    }

    /// The coordinate of spot `spot`.
    func coordinate(of spot: Int) throws(IndexError) -> Coordinate {
        let point = storedPoint(of: spot)
        guard let coordinate = Coordinate(latitudeE7: point.latitudeE7, longitudeE7: point.longitudeE7) else {
            throw impossibleCoordinate(of: spot)
        }
        return coordinate
    }

    /// The error for a spot whose stored point is off the Earth.
    func impossibleCoordinate(of spot: Int) -> IndexError {
        records.bytes.corrupt("spot \(spot) has an impossible coordinate")
    }

    /// The kind number stored for spot `spot`, not yet checked against `kindCount`: for comparing
    /// with a kind number known to be good.
    @inline(__always)
    func storedKindNumber(of spot: Int) -> Int {
        Int(field(.kind, of: spot) as UInt16)
    }

    /// The kind number of spot `spot`: a record of KIND.
    @inline(__always)
    func kindNumber(of spot: Int) throws(IndexError) -> Int {
        let number = storedKindNumber(of: spot)
        guard number < kindCount else { throw records.bytes.corrupt("spot \(spot) has kind \(number) of \(kindCount)") }
        return number
    }

    /// The OSM reference of spot `spot`.
    func ref(of spot: Int) throws(IndexError) -> OSMRef {
        // 48 bits, low 16 first: the id shifted left by 2, and the type in the low 2 bits.
        let high = UInt64(field(.referenceHigh, of: spot) as UInt32)
        let low = UInt64(field(.referenceLow, of: spot) as UInt16)
        let packed = Int64(bitPattern: high << 32 | low << 16) >> 16
        let code = UInt8(packed & 3)
        guard let type = OSMType(rawValue: code) else {
            throw records.bytes.corrupt("spot \(spot) has OSM type \(code)")
        }
        return OSMRef(type, packed >> 2)
    }

    /// Where the attributes of spot `spot` start in ATTR, as stored.
    func attributeOffset(of spot: Int) -> Int {
        Int(field(.attributeOffset, of: spot) as UInt32)
    }
}

/// The attributes (ATTR; FORMAT.md): per spot, varint pairs of string numbers (key, then value),
/// from the offset its SPOT record holds to the next spot's (the last spot's to the end).
/// Nothing is checked on open; each spot's range and varints are checked as they are read.
struct AttributeLists {
    private let bytes: SectionBytes

    /// The attributes in `bytes`.
    init(_ bytes: SectionBytes) {
        self.bytes = bytes
    }

    /// The pairs of spot `spot`, whose offsets `spots` holds.
    func pairs(of spot: Int, in spots: SpotRecords) throws(IndexError) -> AttributePairs {
        let start = spots.attributeOffset(of: spot)
        let end = spot + 1 < spots.count ? spots.attributeOffset(of: spot + 1) : bytes.count
        guard start <= end, end <= bytes.count else { throw bytes.corrupt("spot \(spot) has attributes out of bounds") }
        return AttributePairs(varints: bytes.varints(from: start, to: end), section: bytes)
    }
}

/// The attribute pairs of one spot, read in stored order (by key).
struct AttributePairs {
    private var varints: VarintReader
    /// The section, for errors.
    private let section: SectionBytes

    init(varints: VarintReader, section: SectionBytes) {
        self.varints = varints
        self.section = section
    }

    /// The next pair's string numbers, or nil after the last.
    mutating func next() throws(IndexError) -> (key: UInt32, value: UInt32)? {
        guard !varints.isAtEnd else { return nil }
        return (try number(), try number())
    }

    private mutating func number() throws(IndexError) -> UInt32 {
        guard let value = varints.next() else { throw section.corrupt("a number runs past its spot's attributes") }
        return value
    }
}

/// The quality flags of the spots (QUAL; FORMAT.md): one byte per spot, its `PlaceQuality`.
/// Opening checks that there is one per spot; each is checked for unknown flags as it is read.
struct PlaceQualities {
    private let records: RecordTable

    /// The flags in `bytes`, for `spotCount` spots.
    init(_ bytes: SectionBytes, spotCount: Int) throws(IndexError) {
        records = try RecordTable(bytes, recordSize: 1)
        guard records.count == spotCount else {
            throw bytes.corrupt("holds \(records.count) flags for \(spotCount) spots")
        }
    }

    /// The quality of spot `spot`.
    func quality(of spot: Int) throws(IndexError) -> PlaceQuality {
        let quality = PlaceQuality(rawValue: records.field(at: 0, of: spot))
        guard quality.isSubset(of: PlaceQuality.known) else {
            throw records.bytes.corrupt("spot \(spot) has unknown quality flags \(quality.rawValue)")
        }
        return quality
    }
}
