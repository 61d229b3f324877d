import CZlib
import SpotExport
import SpotIndex
import SpotSearch
import Spots

// The index loader, then every kind of query on what it loaded: spots, names, references,
// quality flags, metadata, checksums, word lists; every group of the first tokens' postings; a walk of the
// token cursor, reading and skipping; nearby, radius, region (also across the antimeridian),
// text (with typos forgiven, dish and compound words), category
// filters; clusters at every zoom, with and without a filter, children, leaves; export in every
// format. Errors are expected; a crash, a sanitizer report or a hang is a finding.
// The header's size and checksum fields are rewritten to fit the input, so that mutations
// reach the section table and the sections rather than stopping at the header checksum.
// Scripts/fuzz compiles this file against the SpotIndex, SpotSearch and SpotExport modules.

/// Rewrites the recorded file size (bytes 16..<24) and the header checksum (24..<28): CRC-32 of
/// the first 24 bytes and the section table (FORMAT.md, "Header").
private func sealHeader(_ bytes: inout [UInt8]) {
    let headerSize = 32
    let entrySize = 32
    guard bytes.count >= headerSize else { return }
    withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { bytes.replaceSubrange(16..<24, with: $0) }
    let sections = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 12, as: UInt32.self) })
    let tableEnd = headerSize + sections * entrySize
    guard sections <= 64, tableEnd <= bytes.count else { return }
    var crc = crc32(0, bytes, 24)
    crc = bytes[headerSize..<tableEnd].withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
    withUnsafeBytes(of: UInt32(crc).littleEndian) { bytes.replaceSubrange(24..<28, with: $0) }
}

private func query(_ index: SpotIndexReader) {
    _ = index.verifyChecksums()
    _ = try? index.metadata()
    _ = try? index.storedSearchWords()
    _ = try? index.letterHouseNumbers()
    for target in ["cuisine=pizza", "tourism=museum", "cafe", ""] {
        if var list = try? index.wordList(of: target) { while (try? list.next()) != nil {} }
    }
    var firstName: String?
    var firstAddress: String?
    var firstCoordinate: Coordinate?
    for spot in 0..<min(index.count, 64) {
        _ = try? index.quality(at: spot)
        guard let value = try? index.spot(at: spot) else { continue }
        firstName = firstName ?? value.name
        firstAddress = firstAddress ?? value.addressLine
        firstCoordinate = firstCoordinate ?? value.coordinate
        _ = try? index.name(at: spot)
        _ = try? index.houseNumber(at: spot)
        _ = try? index.address(at: spot)
        _ = try? index.nameNumbers(at: spot)
        _ = try? index.kind(at: spot)
        if let ref = try? index.ref(at: spot) { _ = try? index.spotNumber(for: ref) }
    }
    for token in (try? index.tokens(withPrefix: []))?.prefix(64) ?? 0..<0 {
        _ = try? index.token(token)
        for var group in (try? index.postingGroups(ofToken: token)) ?? [] {
            while (try? group.ranks.next()) != nil {}
        }
    }
    if let trie = try? index.tokenTrie() {
        for node in 0..<min(trie.nodeCount, 256) { _ = (trie.letter(node), trie.items(node), trie.subtreeEnd(node)) }
    }
    guard let search = try? SpotSearch(index: index) else { return }
    let centre = firstCoordinate ?? Coordinate(latitudeE7: 0, longitudeE7: 0)!
    let world = GeoBox.world
    let acrossAntimeridian = GeoBox(west: 170, south: -10, east: -170, north: 10)!
    let around = GeoBox(center: centre, latitudeDelta: 0.05, longitudeDelta: 0.05)
    let cafes = PointOfInterestFilter(including: [.cafe, .museum])
    let requests = [
        SearchRequest(near: centre, radius: 1000),
        SearchRequest(near: centre, limit: 5),
        SearchRequest(region: world, limit: 50),
        SearchRequest(region: acrossAntimeridian),
        SearchRequest(region: around, near: centre),
        SearchRequest(naturalLanguageQuery: firstName ?? "cafe"),
        SearchRequest(naturalLanguageQuery: "cafe 博物館", near: centre),
        SearchRequest(naturalLanguageQuery: firstName ?? "c", near: centre, sort: .distance, distanceScale: 10),
        SearchRequest(naturalLanguageQuery: "c", limit: 3),
        // Typos: the first name with its second letter dropped, and misspelt category words.
        SearchRequest(naturalLanguageQuery: firstName.map { String($0.prefix(1) + $0.dropFirst(2)) } ?? "cfae"),
        SearchRequest(naturalLanguageQuery: "resturant muzeum", near: centre),
        // Dishes and compounds: word lists (WLST), exact and misspelt.
        SearchRequest(naturalLanguageQuery: "pizza museo", near: centre),
        SearchRequest(naturalLanguageQuery: "pizzza"),
        // Addresses: the first one, its house number before its street, and a number joined to a letter.
        SearchRequest(naturalLanguageQuery: firstAddress ?? "Mannerheimintie 22", near: centre),
        SearchRequest(
            naturalLanguageQuery: firstAddress.map { $0.split(separator: " ").reversed().joined(separator: " ") }),
        SearchRequest(naturalLanguageQuery: "cafe 22 a Mannerheimintei"),
        SearchRequest(pointOfInterestFilter: cafes, near: centre),
        SearchRequest(region: world, pointOfInterestFilter: PointOfInterestFilter(excluding: [.cafe])),
    ]
    for request in requests { _ = try? search.search(request) }
    for zoom in [0, 3, 8, 12, 16, 17, 24] {
        let items = (try? search.clusters(ClusterRequest(region: world, zoom: zoom))) ?? []
        for case .cluster(let cluster) in items.prefix(4) {
            guard let id = cluster.id else { continue }
            _ = try? search.children(ofCluster: id)
            _ = try? search.leaves(ofCluster: id, limit: 10, offset: 0)
            _ = try? search.leaves(ofCluster: id, limit: 5, offset: 7)
            _ = try? search.cluster(id)
        }
        _ = try? search.clusters(ClusterRequest(region: acrossAntimeridian, zoom: zoom))
    }
    _ = try? search.clusters(ClusterRequest(region: world, zoom: 4, pointOfInterestFilter: cafes))
    _ = try? search.children(ofCluster: 0)
    _ = try? search.leaves(ofCluster: 1, limit: 3, offset: 0)
    for format in ExportFormat.allCases {
        var written = 0
        try? SpotExporter(format: format).export(index) { written += $0.count }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIndex(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var bytes = size > 0 ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    sealHeader(&bytes)
    bytes.withUnsafeBufferPointer { sealed in
        withTemporaryFile(sealed.baseAddress, sealed.count) { path in
            if let index = try? SpotIndexReader(path: path) { query(index) }
        }
    }
    return 0
}
