import Foundation
import PackagePlugin

/// Builds into the gateway what a program installed alone needs: the default page templates (every file of the
/// package's `templates/`: the pages, `assets/` and `messages/`) and the revision it was built from (`VERSION` and the
/// checkout's commit). `templates/` stays the one source: a change to a file there rebuilds the module, as a change
/// to its sources does. The generated file is written by `embed-built-in-files` (Tools/).
@main
struct BuiltInFilesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let package = context.package.directoryURL
        let templates = package.appending(path: "templates")
        let files = try TemplateFileList.files(under: templates)
        let revision = SourceRevision(packageDirectory: package)
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInFiles.swift")
        // The revision travels in the arguments: a new commit changes them, and a changed command runs again.
        let arguments =
            [output.path, templates.path, revision.version, revision.commit, revision.commitDate, revision.modified ? "modified" : "clean"] + files
        return [
            .buildCommand(
                displayName: "Building templates/ and the source revision into \(target.name)",
                executable: try context.tool(named: "embed-built-in-files").url,
                arguments: arguments,
                inputFiles: files.map { templates.appending(path: $0) } + [revision.versionFile],
                outputFiles: [output]
            )
        ]
    }
}
