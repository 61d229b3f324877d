import Foundation
import SpotIndex

/// What `spots refresh` needs of a pipeline, beside what a build needs.
extension Pipeline {
    /// Whether `metadata` records a build of exactly these inputs (same count, sizes and
    /// SHA-256 digests, in order) with this pipeline file: what lets a refresh skip rebuilding.
    public func built(_ metadata: IndexMetadata) -> Bool {
        guard metadata.inputs.count == inputs.count, metadata.pipeline?.sha256 == fileSHA256 else { return false }
        for (recorded, path) in zip(metadata.inputs, inputs) {
            guard (try? URL(fileURLWithPath: path).resourceValues(forKeys: [.fileSizeKey]))?.fileSize == recorded.bytes,
                let digest = SHA256.hex(ofFile: path), digest == recorded.sha256
            else { return false }
        }
        return true
    }

    /// The published output path; throws when the pipeline file names no inputs or no output,
    /// which a refresh (unlike `spots build`, whose command line may add them) cannot do without.
    public func refreshOutput() throws(PipelineError) -> String {
        guard !inputs.isEmpty else { throw PipelineError(isUnreadable: false, file: file ?? "default.json", path: ".inputs", message: "a refresh needs at least one input") }
        guard let output else { throw PipelineError(isUnreadable: false, file: file ?? "default.json", path: ".output", message: "a refresh needs the output path") }
        return output
    }
}
