import Foundation
import SpotIndex
import SpotPipeline

/// What a refresh checks of a pipeline beside its settings: that it names what a refresh
/// needs, and whether the published index is already its build.
extension Pipeline {
    /// The published output path; throws when the pipeline file names no inputs or no output,
    /// which a refresh (unlike `spots build`, whose command line may add them) cannot do without.
    public func refreshOutput() throws(PipelineError) -> String {
        let file = file ?? "default.json"
        guard !inputs.isEmpty else {
            throw PipelineError(file: file, path: ".inputs", message: "a refresh needs at least one input")
        }
        guard let output else {
            throw PipelineError(file: file, path: ".output", message: "a refresh needs the output path")
        }
        return output
    }

    /// The pipeline with its first input replaced by `file` for one run (`--input`): a download
    /// checked and built before it replaces the input the pipeline names.
    public func replacingFirstInput(with file: String) -> Pipeline {
        var pipeline = self
        if !pipeline.inputs.isEmpty { pipeline.inputs[0] = URL(fileURLWithPath: file).standardizedFileURL.path }
        return pipeline
    }

    /// Whether `metadata` records a build of exactly these inputs (same count, sizes and
    /// SHA-256 digests, in order) with this pipeline file (same name and SHA-256, as
    /// `settings` records them): what lets a refresh skip rebuilding.
    func built(_ metadata: IndexMetadata) -> Bool {
        guard metadata.inputs.count == inputs.count, metadata.pipeline?.sha256 == fileSHA256,
            metadata.pipeline?.file == settings.file
        else { return false }
        for (recorded, path) in zip(metadata.inputs, inputs) {
            let size = (try? URL(fileURLWithPath: path).resourceValues(forKeys: [.fileSizeKey]))?.fileSize
            guard size == recorded.bytes, let digest = SHA256.hex(ofFile: path), digest == recorded.sha256 else {
                return false
            }
        }
        return true
    }
}
