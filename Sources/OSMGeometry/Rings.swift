/// Joins the member ways of a multipolygon relation into closed rings by their end nodes, as
/// osmium's and Osmosis's assemblers do: a ring starts with an unused way and takes, while its
/// last node is not its first, an unused way that starts or ends at that node (reversed when it
/// ends there).
public enum Rings {
    /// Rings (closed node lists, first node repeated last) made of `ways`; nil when a way cannot
    /// be joined into a closed ring of at least four nodes.
    public static func join(_ ways: [[Int64]]) -> [[Int64]]? {
        var unused = ways.filter { !$0.isEmpty }
        var rings: [[Int64]] = []
        while !unused.isEmpty {
            var ring = unused.removeFirst()
            while ring.first != ring.last || ring.count < 2 {
                let end = ring.last!
                guard let next = unused.firstIndex(where: { $0.first == end || $0.last == end }) else { return nil }
                let way = unused.remove(at: next)
                ring += (way.first == end ? way : way.reversed()).dropFirst()
            }
            guard ring.count >= 4 else { return nil }
            rings.append(ring)
        }
        return rings
    }
}
