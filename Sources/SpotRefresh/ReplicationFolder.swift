import Foundation

/// A folder of osmChange files laid out as OpenStreetMap's replication servers (and the extract
/// download sites' `-updates` folders) lay them out: change N as `AAA/BBB/CCC.osc.gz` (N's nine
/// digits in three groups) with its `AAA/BBB/CCC.state.txt`, and the newest sequence number in
/// the top-level `state.txt` (`sequenceNumber=N`, Java properties as Osmosis writes them).
public struct ReplicationFolder {
    /// The folder.
    let path: String

    /// The newest sequence number the folder's state.txt names; throws `missingChanges` when
    /// it cannot be read or names none.
    func newestSequence() throws(RefreshError) -> Int {
        let file = path + "/state.txt"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw RefreshError(.missingChanges, file: file, "cannot read the change folder's state.txt")
        }
        guard let sequence = Self.sequence(inState: text) else {
            throw RefreshError(.missingChanges, file: file, "names no sequenceNumber")
        }
        return sequence
    }

    /// The sequence number of a change file laid out as a replication server lays it out: the
    /// `sequenceNumber` of NNN.state.txt beside NNN.osc.gz; nil when there is none.
    public static func sequence(ofChange file: String) -> Int? {
        guard let dot = file.range(of: ".osc", options: .backwards) else { return nil }
        let stateFile = String(file[..<dot.lowerBound]) + ".state.txt"
        return (try? String(contentsOfFile: stateFile, encoding: .utf8)).flatMap(sequence(inState:))
    }

    /// The `sequenceNumber` of a state.txt's text.
    static func sequence(inState text: String) -> Int? {
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "sequenceNumber" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    /// The change file of sequence `number`: `AAA/BBB/CCC.osc.gz`.
    func changeFile(_ number: Int) -> String {
        let digits = String(format: "%09d", number)
        let groups = stride(from: 0, to: 9, by: 3).map { digits.dropFirst($0).prefix(3) }
        return path + "/" + groups.joined(separator: "/") + ".osc.gz"
    }

    /// The change files after `applied` through `newest`, in order; throws `missingChanges`
    /// naming the first one missing (a gap in the sequence).
    func changes(after applied: Int, through newest: Int) throws(RefreshError) -> [String] {
        guard applied < newest else { return [] }
        return try (applied + 1...newest).map { (number) throws(RefreshError) in
            let file = changeFile(number)
            guard FileManager.default.fileExists(atPath: file) else {
                throw RefreshError(
                    .missingChanges, file: file,
                    "change \(number) is missing: the folder has changes through \(newest) and the index "
                        + "has \(applied); download the gap")
            }
            return file
        }
    }
}
