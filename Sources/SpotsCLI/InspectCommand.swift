import SpotIndex
import SpotReport

/// `spots inspect INDEX`: the header, counts, extent, build metadata and checksum verdict.
enum InspectCommand {
    static let options = [
        OptionSpec(
            names: ["-v", "--verbose"], valueName: nil,
            help: "Also show the format and each section with its offset, length and checksum."),
        Help.option,
    ]

    static let help = Help(
        command: "inspect",
        overview: "Show what an index holds and verify every section's checksum.",
        arguments: [Help.index],
        options: options,
        discussion: """
            Every section's checksum is verified; the last line gives the verdict. Exits 65 when a
            checksum does not match or the file is damaged.
            """)

    static func run(_ arguments: Arguments) throws {
        let index = try SpotIndexReader(path: try arguments.onlyPositional("<index>"))
        let inspection = try IndexInspection(index, verbose: arguments.flag("--verbose"))
        print(inspection.text, terminator: "")
        if let damaged = inspection.damagedSections.first {
            throw IndexError(.corrupt, file: index.file, section: damaged.name, "checksum mismatch")
        }
    }
}
