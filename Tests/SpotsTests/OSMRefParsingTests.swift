import Spots
import Testing

extension OSMRefTests {
    @Test("a short reference parses back to its type and id; anything else is refused")
    func parsing() {
        let refs = [
            OSMRef(.node, 123), OSMRef(.way, -5), OSMRef(.relation, 0), OSMRef(.node, Int64.max),
            OSMRef(.relation, Int64.min),
        ]
        for ref in refs {
            #expect(OSMRef(parsing: ref.description) == ref)
        }
        #expect(OSMRef(parsing: "w45"[...]) == OSMRef(.way, 45))
        for text in ["", "n", "x12", "N12", "n12a", "n 12", "12", "n9223372036854775808", "node12"] {
            #expect(OSMRef(parsing: text) == nil, "\(text)")
        }
    }
}
