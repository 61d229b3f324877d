import Foundation
import PackagePlugin

/// Compiles the pipeline files that builds use by default (Pipelines/default.json,
/// categories.json and category-words.json) into the target as string constants, so that the `spots` binary
/// carries its defaults wherever it is copied, and Pipelines/ stays their one source.
@main
struct EmbedPipelines: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Pipelines")
        let inputs = ["default.json", "categories.json", "category-words.json", "value-words.json"].map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPipelines.swift")
        return [
            .buildCommand(
                displayName: "Embedding Pipelines/default.json, categories.json, category-words.json and value-words.json",
                executable: try context.tool(named: "embed-files").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
