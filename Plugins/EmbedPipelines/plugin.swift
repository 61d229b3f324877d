import Foundation
import PackagePlugin

/// Compiles the files of Pipelines/ that a target uses by default into it, so that the `spots`
/// binary and the libraries carry their defaults wherever they are copied, and Pipelines/ stays
/// their one source: into SpotBuiltInWords the search words (category-words.json, value-words.json),
/// folded into `SearchWords` line form by the fold-words tool so that no program folds them
/// when it starts; into SpotPipeline the default pipeline and category table (default.json,
/// categories.json) as text, by embed-files.
@main
struct EmbedPipelines: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Pipelines")
        let foldsWords = target.name == "SpotBuiltInWords"
        let names = foldsWords ? ["category-words.json", "value-words.json"] : ["default.json", "categories.json"]
        let inputs = names.map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPipelines.swift")
        return [
            .buildCommand(
                displayName: (foldsWords ? "Folding" : "Embedding") + " Pipelines/" + names.joined(separator: ", ")
                    + " into " + target.name,
                executable: try context.tool(named: foldsWords ? "fold-words" : "embed-files").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
