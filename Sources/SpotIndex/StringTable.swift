/// A string table (STRS, TOKN): a count, the end offset of each string, then the UTF-8 bytes.
struct StringTable {
    private let ends: UnsafeRawBufferPointer
    private let text: UnsafeRawBufferPointer
    let count: Int

    init(_ section: UnsafeRawBufferPointer, file: String, section name: String) throws(IndexError) {
        guard section.count >= 4 else { throw IndexError(.corrupt, file: file, section: name, "too short") }
        count = Int(section.load(0) as UInt32)
        guard count <= (section.count - 4) / 4 else {
            throw IndexError(.corrupt, file: file, section: name, "\(count) strings do not fit in \(section.count) bytes")
        }
        ends = UnsafeRawBufferPointer(rebasing: section[4..<4 + 4 * count])
        text = UnsafeRawBufferPointer(rebasing: section[(4 + 4 * count)...])
    }

    /// String `index`, or nil when the index or its offsets are out of bounds.
    subscript(index: UInt32) -> String? {
        guard let range = range(Int(index)) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: text[range]), as: UTF8.self)
    }

    /// The bytes of string `index`; empty when its offsets are out of bounds.
    func bytes(_ index: Int) -> UnsafeRawBufferPointer.SubSequence {
        guard let range = range(index) else { return text[0..<0] }
        return text[range]
    }

    private func range(_ index: Int) -> Range<Int>? {
        guard index < count else { return nil }
        let start = index == 0 ? 0 : Int(ends.load(4 * (index - 1)) as UInt32)
        let end = Int(ends.load(4 * index) as UInt32)
        guard start <= end, end <= text.count else { return nil }
        return start..<end
    }
}
