import Foundation

/// The files of one layer of templates by their path in it: the pages (`*.mustache`), `assets/{name}` and
/// `messages/{lang}.json`. A layer is a directory (`templates.directory`, `templates.overrideDirectory`) or the set built
/// into the program from the repository's `templates/` (the default: an installed program needs no file beside it).
struct TemplateFiles: Sendable {
    /// Where the files come from, as messages name it: a directory's path, or "the built-in templates".
    let origin: String
    /// The files' bytes by path.
    let files: [String: Data]

    /// The templates built into the program (the repository's `templates/` when it was built; the `BuiltInFiles` plugin).
    static let builtIn = TemplateFiles(
        origin: "the built-in templates",
        files: Dictionary(uniqueKeysWithValues: GeneratedBuiltInFiles.templates.map { ($0.path, Data(base64Encoded: $0.base64) ?? Data()) })
    )

    /// The pages by template name (`step` for `step.mustache`).
    var pages: [String: Data] {
        Dictionary(
            uniqueKeysWithValues: files.filter { !$0.key.contains("/") && $0.key.hasSuffix(".mustache") }.map {
                (String($0.key.dropLast(".mustache".count)), $0.value)
            }
        )
    }

    /// The files of a folder (`assets`, `messages`) by their names in it.
    func folder(_ name: String) -> [String: Data] {
        Dictionary(uniqueKeysWithValues: files.filter { $0.key.hasPrefix("\(name)/") }.map { (String($0.key.dropFirst(name.count + 1)), $0.value) })
    }

    /// Reads a templates directory: its `*.mustache` files, and the files of its `assets/` and `messages/` (either may
    /// be absent).
    /// - Throws: ``GatewayError`` (`unreadableInput`) naming the directory that is missing or a file that cannot be read.
    static func reading(directory: URL) throws(GatewayError) -> TemplateFiles {
        guard isDirectory(directory) else {
            let why =
                switch FileAccess.reason(reading: directory.path, directory: true) {
                case nil: "is not a directory"
                case "it does not exist"?: "does not exist"
                case let reason?: "cannot be read: \(reason)"
                }
            throw GatewayError(.unreadableInput, "templates directory \(directory.path) \(why)")
        }
        var files: [String: Data] = [:]
        for folder in ["", "assets", "messages"] {
            let url = folder.isEmpty ? directory : directory.appendingPathComponent(folder)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
                if folder.isEmpty { throw GatewayError(.unreadableInput, "cannot list templates directory \(directory.path)") }
                continue
            }
            for name in names where !name.hasPrefix(".") {
                let file = url.appendingPathComponent(name)
                guard !isDirectory(file) else { continue }
                guard let data = FileManager.default.contents(atPath: file.path) else {
                    throw GatewayError(.unreadableInput, "cannot read \(file.path)")
                }
                files[folder.isEmpty ? name : "\(folder)/\(name)"] = data
            }
        }
        return TemplateFiles(origin: directory.path, files: files)
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
