/// The KLST section split into its parts: kind count, list ends, the lists' bytes.
struct RawKindLists {
    var count: UInt32
    var ends: [UInt32]
    var listBytes: [UInt8]

    /// Splits a section into its parts, as its count word says.
    init(_ section: [UInt8]) throws {
        var cursor = ByteCursor(section)
        count = try cursor.word()
        ends = try (0..<Int(count)).map { _ in try cursor.word() }
        listBytes = try cursor.take(section.count - cursor.position)
    }

    /// The section of the rank lists `lists`, one per kind.
    init(lists: [[Int]]) {
        self.init(listBytes: lists.map(rankList))
    }

    /// The section of these encoded lists, one per kind, the ends where each one ends.
    init(listBytes lists: [[UInt8]]) {
        count = UInt32(lists.count)
        listBytes = lists.flatMap { $0 }
        var end = 0
        ends = lists.map { list in
            end += list.count
            return UInt32(end)
        }
    }

    var encoded: [UInt8] { le32([count] + ends) + listBytes }

    /// Each kind's list of ranks: the ends ascend, the last is the lists' length, each list is
    /// one rank list filling its bytes.
    func lists() throws -> [[Int]] {
        guard Int(ends.last ?? 0) == listBytes.count else {
            throw FormatViolation("the last end is not the lists' length")
        }
        var start = 0
        return try ends.map { end in
            guard Int(end) >= start else { throw FormatViolation("a list ends at \(end), before its start \(start)") }
            defer { start = Int(end) }
            return try decodeRankList(Array(listBytes[start..<Int(end)]))
        }
    }
}
