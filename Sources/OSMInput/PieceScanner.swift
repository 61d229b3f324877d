/// Walks the top-level elements of a piece parsed apart and finds its plain elements
/// (`PlainElement`), so that expat is fed only the stretches between them.
///
/// A piece parsed apart starts directly inside `<osm>`, before a top-level start tag, and holds
/// only tags and character data (`PieceCutter`). The scanner follows it element by element: a
/// plain element is returned; any other element, and any text between elements, joins the stretch
/// that expat reads, stepped over by a tokenizer that knows tags, their quoted values and the
/// depth, as the cutter's does. Anything it does not expect (an end tag at the top, special
/// markup, the piece ending inside an element) ends the scan, and expat reads the rest.
///
/// Removing plain elements, complete well-formed elements, and whitespace from the content of
/// `<osm>` leaves a document that is well-formed exactly when the whole one is, with the same
/// elements in the same order. A stretch starts with markup or text, never with whitespace.
struct PieceScanner {
    private let bytes: XMLBytes
    private let limits: OSMReadLimits
    /// Where the scan goes on; `count` once it has ended.
    private var offset = 0
    /// The children of the plain element `next` returned last.
    private(set) var children = PlainChildren()

    /// A scanner of `bytes`, taking plain elements within `limits`.
    init(_ bytes: XMLBytes, limits: OSMReadLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// The stretch for expat before the next plain element (empty when there is none), and that
    /// element with the offset of its `<` (its children in `children`); with no element left,
    /// the stretch runs to the piece's end (or is empty when only whitespace is left).
    mutating func next() -> (stretch: Range<Int>, plain: (start: Int, element: PlainElement)?) {
        var stretch: Range<Int>?
        let count = bytes.count
        while true {
            offset = bytes.skipSpace(from: offset)
            guard offset < count else { return (stretch ?? count..<count, nil) }
            var end: Int?
            if bytes[offset] != UInt8(ascii: "<") {
                end = bytes.find(UInt8(ascii: "<"), from: offset)  // text between elements
            } else if offset + 1 < count {
                switch bytes[offset + 1] {
                case UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "?"):
                    break
                default:
                    if let element = PlainElement.read(bytes, from: offset, limits: limits, children: &children) {
                        let start = offset
                        offset = element.end
                        return (stretch ?? start..<start, (start, element))
                    }
                    end = elementEnd(from: offset)
                }
            }
            guard let end else {
                // The scan ends: expat reads the rest.
                let rest = (stretch?.lowerBound ?? offset)..<count
                offset = count
                return (rest, nil)
            }
            stretch = (stretch?.lowerBound ?? offset)..<end
            offset = end
        }
    }

    /// The offset after the element whose start tag's `<` is at `start`, or nil when the piece
    /// ends first or holds markup other than tags inside it.
    private func elementEnd(from start: Int) -> Int? {
        var depth = 0
        var index = start
        while true {
            guard index + 1 < bytes.count else { return nil }
            switch bytes[index + 1] {
            case UInt8(ascii: "/"):
                guard let gt = bytes.find(UInt8(ascii: ">"), from: index + 2) else { return nil }
                depth -= 1
                index = gt + 1
            case UInt8(ascii: "!"), UInt8(ascii: "?"):
                return nil
            default:
                guard let gt = startTagEnd(from: index + 1) else { return nil }
                if bytes[gt - 1] != UInt8(ascii: "/") { depth += 1 }
                index = gt + 1
            }
            if depth == 0 { return index }
            guard let next = bytes.find(UInt8(ascii: "<"), from: index) else { return nil }
            index = next
        }
    }

    /// The offset of the `>` that ends the start tag going on at `from`, quoted values skipped.
    private func startTagEnd(from: Int) -> Int? {
        var index = from
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") { return index }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard let close = bytes.find(byte, from: index + 1) else { return nil }
                index = close
            }
            index += 1
        }
        return nil
    }
}
