import Foundation
import PackagePlugin

/// Compiles the files a target carries into it, so that the `spots` binary and the libraries
/// work wherever they are copied, and each folder stays their one source: into SpotBuiltInWords
/// the search words of Pipelines/ (category-words.json, value-words.json), folded into
/// `SearchWords` line form by the fold-words tool so that no program folds them when it starts;
/// into SpotPipeline the default pipeline and category table (Pipelines/default.json,
/// categories.json) as text, by embed-files; into SpotServe the map page (Web/) as text, by
/// embed-files.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let (folder, names, tool) = Self.files(of: target.name, in: context.package.directoryURL)
        let directory = context.package.directoryURL.appending(path: folder)
        let inputs = names.map { directory.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: (tool == "fold-words" ? "Folding " : "Embedding ") + folder + "/ "
                    + names.joined(separator: ", ") + " into " + target.name,
                executable: try context.tool(named: tool).url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }

    /// The folder, files and tool of `target`, in the package at `package`.
    static func files(of target: String, in package: URL) -> (folder: String, names: [String], tool: String) {
        switch target {
        case "SpotBuiltInWords":
            ("Pipelines", ["category-words.json", "value-words.json"], "fold-words")
        case "SpotServe":
            ("Web", webFiles(in: package.appending(path: "Web")), "embed-files")
        default:
            ("Pipelines", ["default.json", "categories.json"], "embed-files")
        }
    }

    /// Every file of the page's folder and its subfolders, as paths inside it, sorted.
    static func webFiles(in folder: URL) -> [String] {
        let paths = FileManager.default.subpaths(atPath: folder.path) ?? []
        return paths.filter { path in
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: folder.appending(path: path).path, isDirectory: &isFolder)
            return exists && !isFolder.boolValue && !path.split(separator: "/").last!.hasPrefix(".")
        }.sorted()
    }
}
