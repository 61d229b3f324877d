import Foundation
import SpotIndex
import SpotReport
import SpotState
import Spots

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
        let inspection = try IndexInspection(
            index, verbose: arguments.flag("--verbose"), state: stateSummary(of: index.file))
        print(inspection.text, terminator: "")
        if let damaged = inspection.damagedSections.first {
            throw IndexError(.corrupt, file: index.file, section: damaged.name, "checksum mismatch")
        }
    }

    /// "NAME.state (base NAME.base-1.state, sequence 4321, overlay 12 nodes and 3 ways)" when
    /// the index keeps a state beside it for updates, or what is wrong with it; nil when it
    /// keeps none.
    static func stateSummary(of index: String) -> String? {
        let path = StatePair.path(forIndex: index)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let state = try StatePair.open(forIndex: index)
            let metadata = try StateMetadata(state)
            let geometry = try StateGeometry(
                state, metadata: metadata, folder: URL(fileURLWithPath: path).deletingLastPathComponent().path)
            let sequence = metadata.sequence.map { ", sequence \($0)" } ?? ""
            return "\(path) (base \(metadata.base!.name)\(sequence), overlay "
                + "\(NumberText.grouped(geometry.overlayNodes.count)) nodes and "
                + "\(NumberText.grouped(geometry.overlayWays.count)) ways)"
        } catch {
            return "unusable: \(error)"
        }
    }
}
