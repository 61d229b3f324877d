import Foundation
import SpotJSON

/// Reads the JSON of a pipeline file, a category table or a search word file named by a
/// pipeline: the one place where Foundation's JSON decoder is still used.
enum PipelineJSON {
    /// The top level of `text`, the contents of `file`, for `JSONField`'s readers. Read by RFC
    /// 8259 (`JSONValue(parsing:)`, several times faster than Foundation's decoder, and the
    /// built-in files are parsed at every start), or where that refuses, by Foundation's
    /// `JSONDecoder`, because pipeline files have always been read by it: its grammar is a
    /// little more lenient (a trailing comma), and its message names what is wrong in the
    /// error "not valid JSON (...)". Whether pipeline files become strict is a later decision;
    /// until then both readers give the same values, and this is where the fallback goes.
    static func parse(_ text: String, file: String) throws(JSONFieldError) -> JSONField {
        if let value = try? JSONValue(parsing: text.utf8) { return JSONField(value, document: file) }
        do {
            return JSONField(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), document: file)
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? "\(error)"
            throw JSONFieldError(document: file, path: nil, message: "not valid JSON (\(brief(reason)))")
        }
    }

    /// The first sentence of a decoder's message.
    private static func brief(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        return line.count > 160 ? String(line.prefix(160)) + "…" : line
    }
}
