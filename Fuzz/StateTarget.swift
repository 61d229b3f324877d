import CZlib
import OSMInput
import SpotState

// The state file reader (NAME.state and its base, NAME.base-G.state): the trailer and section
// table, the checked blocks, then every reader on what opened: the metadata, every record (its
// tags, members and lookups), the node and way tables of the base and of the overlay (lookups
// of ids found in the data and of ids taken from the input, and walks). Errors are expected; a
// crash, a sanitizer report or a hang is a finding.
// The trailer's file size and the section table's checksum are rewritten to fit the input, so
// that mutations reach the table and the sections rather than stopping at the trailer; for
// about half the inputs (the low bit of the last byte, the identity's, which no reader here
// compares) each section's block checksums are rewritten too, so that mutations inside the
// sections reach the readers behind the checks. The other half exercise the checks.
// Scripts/fuzz compiles this file against the SpotState module and the modules it imports.

/// The trailer (magic, version, count, table offset, file size, table CRC, block size, identity),
/// a table entry (tag, reserved, offset, length, CRC offset), and a checksum block (docs/update.md).
private let trailerSize = 72
private let entrySize = 32
private let blockSize = 4096
private let maxSections = 64

/// Work allowed for one input's walks and lookups, so that a table claiming a huge count or a
/// record claiming many tags cannot make one input take more than a moment.
private let stepLimit = 100_000

private func load<Value: FixedWidthInteger>(_: Value.Type, _ bytes: [UInt8], at offset: Int) -> Value {
    bytes.withUnsafeBytes { Value(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Value.self)) }
}

private func store<Value: FixedWidthInteger>(_ value: Value, _ bytes: inout [UInt8], at offset: Int) {
    withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + $0.count, with: $0) }
}

private func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
}

/// Rewrites the trailer's file size and, when the table lies where the trailer says, each
/// section's block CRCs (when `blocks`: those whose section and CRCs lie before the table) and
/// the table's CRC (StateWriter.finish, StateFile.init).
private func sealTrailer(_ bytes: inout [UInt8], blocks: Bool) {
    let trailerStart = bytes.count - trailerSize
    guard trailerStart >= 0 else { return }
    store(UInt64(bytes.count), &bytes, at: trailerStart + 24)
    let count = Int(load(UInt32.self, bytes, at: trailerStart + 12))
    let tableOffset = load(UInt64.self, bytes, at: trailerStart + 16)
    guard count <= maxSections, UInt64(count * entrySize) <= UInt64(trailerStart),
        tableOffset == UInt64(trailerStart - count * entrySize)
    else { return }
    let table = Int(tableOffset)
    if blocks {
        for index in 0..<count {
            let entry = table + index * entrySize
            let offset = load(UInt64.self, bytes, at: entry + 8)
            let length = load(UInt64.self, bytes, at: entry + 16)
            let checksums = load(UInt64.self, bytes, at: entry + 24)
            guard offset <= UInt64(table), length <= UInt64(table) - offset, checksums <= UInt64(table) else {
                continue
            }
            let (start, end, sums) = (Int(offset), Int(offset + length), Int(checksums))
            let blockCount = (end - start + blockSize - 1) / blockSize
            guard 4 * blockCount <= table - sums else { continue }
            for block in 0..<blockCount {
                let blockStart = start + block * blockSize
                let crc = checksum(bytes[blockStart..<min(end, blockStart + blockSize)])
                store(crc, &bytes, at: sums + 4 * block)
            }
        }
    }
    store(checksum(bytes[table..<trailerStart]), &bytes, at: trailerStart + 32)
}

/// The work left for one input.
private struct Budget {
    var left = stepLimit

    /// Takes `steps`; false once the budget is spent.
    mutating func spend(_ steps: Int) -> Bool {
        left -= max(1, steps)
        return left > 0
    }
}

/// Ends a walk early.
private struct Stop: Error {}

/// Ids to look up: some found in the data (`found`), and some from the input and the edges.
private func probes(_ found: [Int64], _ input: [UInt8]) -> [Int64] {
    var ids = Array(found.prefix(24))
    ids += [0, 1, -1, Int64.min, Int64.max, 1 << 32, (1 << 32) - 1]
    for step in 0..<8 where input.count >= 8 {
        let offset = (step * 7919 + Int(input[step % input.count])) % (input.count - 7)
        ids.append(load(Int64.self, input, at: offset))
    }
    return ids + found.map { $0 &+ 1 }.prefix(8)
}

private func readRecords(
    _ file: StateFile, _ input: [UInt8], _ budget: inout Budget, ways: inout [Int64], nodes: inout [Int64]
) {
    guard let records = try? RecordTable(file) else { return }
    var wanted = Set(probes([], input))
    for index in 0..<records.count {
        guard budget.spend(1) else { return }
        let record = records[index]
        _ = (record.header.id, record.header.version, record.header.type, record.header.latitudeE7)
        for tag in 0..<record.tagCount {
            // tag(at:) walks the tags before it.
            guard budget.spend(tag + 1) else { return }
            let (key, value) = record.tag(at: tag)
            _ = (key.buffer.first, key.buffer.last, value.buffer.first, value.buffer.last)
        }
        for member in record.members.prefix(64) where member.isValid != 0 {
            if ways.count < 64 { ways.append(member.ref) }
        }
        _ = record.lookups.isEmpty
        let values = record.lookups.values
        guard budget.spend(values.ways.count + values.nodes.count) else { return }
        for (id, references) in values.ways.prefix(8) {
            if ways.count < 64 { ways.append(id) }
            guard budget.spend(references?.count ?? 0) else { return }
            nodes += (references ?? []).prefix(max(0, 64 - nodes.count))
        }
        for (id, _) in values.nodes.prefix(8) where nodes.count < 64 { nodes.append(id) }
        _ = record.lookups.touches(ways: { wanted.contains($0) }, nodes: { wanted.contains($0) })
        if let way = values.ways.last?.id, let node = values.nodes.first?.id { wanted.formUnion([way, node]) }
        _ = record.lookups.touches(ways: { _ in false }, nodes: { _ in false })
        if nodes.count < 64 { nodes.append(record.header.id) }
    }
}

private func readNodes(
    _ file: StateFile, _ names: (entries: String, runs: String, fence: String), _ input: [UInt8],
    _ budget: inout Budget, found: [Int64]
) {
    guard let table = try? NodeTable(file, names) else { return }
    _ = table.count
    var seen = found
    var steps = budget.left
    try? table.forEachNode { id, _, _ in
        if seen.count < 64 && steps % 97 == 0 { seen.append(id) }
        steps -= 1
        if steps <= 0 { throw Stop() }
    }
    _ = budget.spend(budget.left - steps)
    for id in probes(seen, input) { _ = try? table.location(of: id) }
}

private func readWays(
    _ file: StateFile, _ names: (ids: String, lists: String, fence: String), _ input: [UInt8],
    _ budget: inout Budget, found: [Int64]
) {
    guard let table = try? WayTable(file, names) else { return }
    _ = table.count
    var seen = found
    var steps = budget.left
    try? table.forEachWay { id, nodes in
        if seen.count < 64 && steps % 31 == 0 { seen.append(id) }
        steps -= 1 + (nodes?.count ?? 0)
        if steps <= 0 { throw Stop() }
    }
    _ = budget.spend(budget.left - steps)
    for id in probes(seen, input) { _ = try? table.nodes(of: id) }
}

/// Sections read straight, through the checks: whole, and at ranges taken from the input.
private func readSections(_ file: StateFile, _ input: [UInt8]) {
    let names = [
        "META", "RHDR", "RTAG", "RMEM", "RBYT", "RLKW", "RLKR", "RLKN", "NENT", "NRUN", "NFEN", "WIDS", "WREF",
        "WFEN", "ONEN", "ONRU", "OFEN", "OWID", "OWRF", "OWFN",
    ]
    for (index, name) in names.enumerated() {
        guard let section = try? file.section(name) else { continue }
        let first = input.isEmpty ? 0 : Int(input[index % input.count]) * 37 - 64
        for range in [first..<first + 12, first..<max(first, section.count), section.count - 1..<section.count + 1] {
            _ = try? section.bytes(range)
        }
        _ = try? section.load(UInt64.self, at: first)
        _ = try? section.table(of: Int64.self)
    }
}

private func read(_ path: String, _ input: [UInt8]) {
    guard let file = try? StateFile(path: path) else { return }
    _ = try? file.checkPair(indexHead: file.identity, index: "fuzz.spots")
    _ = try? file.checkPair(indexHead: input.prefix(32), index: "fuzz.spots")
    _ = try? StateMetadata(file)
    var budget = Budget()
    var ways: [Int64] = []
    var nodes: [Int64] = []
    readRecords(file, input, &budget, ways: &ways, nodes: &nodes)
    for names in [WayTable.base, WayTable.overlay] {
        readWays(file, names, input, &budget, found: ways)
    }
    for names in [NodeTable.base, NodeTable.overlay] {
        readNodes(file, names, input, &budget, found: nodes)
    }
    readSections(file, input)
    file.releaseResidentPages()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzState(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var bytes = size > 0 ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    sealTrailer(&bytes, blocks: (bytes.last ?? 0) & 1 == 1)
    bytes.withUnsafeBufferPointer { sealed in
        withTemporaryFile(sealed.baseAddress, sealed.count) { path in read(path, bytes) }
    }
    return 0
}
