import Foundation

/// The formats a command writes, chosen by `--format` or by the output file's extension, as
/// each format enum's table says (`export -o x.geojson` writes GeoJSON).
public protocol OutputFormat: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    /// The format each extension (lower case, without the dot) implies; nil: a file so named
    /// cannot hold any of these formats, and is refused.
    static var byExtension: [String: Self?] { get }
    /// The format of standard output and of a file whose extension is not in `byExtension`.
    static var byDefault: Self { get }
}

/// An output's name that does not fit the format: an extension the command cannot write, or
/// one that contradicts `--format` (exit 64).
public struct OutputFormatError: Error, CustomStringConvertible, Sendable {
    /// The output as it was given.
    public let file: String
    /// What is wrong.
    public let message: String

    /// `FILE: what is wrong`.
    public var description: String { "\(file): \(message)" }
}

extension OutputFormat {
    /// The format to write to `output` (nil or `-`: standard output): `given` (a `--format`),
    /// else the one the extension implies, else `byDefault`. Throws when the extension is
    /// refused, or implies another format than `given`.
    public static func chosen(_ given: Self?, for output: String?) throws(OutputFormatError) -> Self {
        guard let output, output != "-" else { return given ?? byDefault }
        let suffix = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard let implied = byExtension[suffix] else { return given ?? byDefault }
        let names = allCases.map(\.rawValue)
        let list = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        guard let implied else {
            throw OutputFormatError(file: output, message: "a .\(suffix) file cannot hold \(list); name it otherwise")
        }
        if let given, given != implied {
            throw OutputFormatError(
                file: output,
                message: "--format \(given.rawValue) contradicts the extension .\(suffix) (\(implied.rawValue))")
        }
        return implied
    }
}
