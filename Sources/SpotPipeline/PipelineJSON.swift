import SpotJSON

/// Reads the JSON of a pipeline file, a category table or a search word file named by a
/// pipeline, strictly by RFC 8259 (`JSONValue(parsing:)`): no trailing commas, no comments. A
/// file that is not JSON is refused with the line and column where reading stopped and what
/// was expected there. (Foundation's decoder read these files until it was dropped; it let a
/// trailing comma through, which docs/build.md notes for files written against it.)
enum PipelineJSON {
    /// The top level of `text`, the contents of `file`, for `JSONField`'s readers.
    static func parse(_ text: String, file: String) throws(JSONFieldError) -> JSONField {
        do {
            return JSONField(try JSONValue(parsing: text.utf8), document: file)
        } catch {
            let (line, column) = position(ofByte: error.offset, in: text)
            let inside = error.path.isEmpty ? "" : " (in \(error.path))"
            throw JSONFieldError(
                document: file, path: nil,
                message: "not valid JSON: line \(line), column \(column)\(inside): \(error.message)")
        }
    }

    /// The line and column (from 1, columns in characters) of byte `offset` of `text`.
    static func position(ofByte offset: Int, in text: String) -> (line: Int, column: Int) {
        let before = text.utf8.prefix(offset)
        let line = before.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { before.index(after: $0) } ?? before.startIndex
        let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        return (line, column)
    }
}
