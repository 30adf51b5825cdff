import Foundation

/// The files of a templates directory, as paths relative to it, sorted (so the generated source is the same on every
/// machine): the directory's own files and those of its `assets/` and `messages/`.
enum TemplateFileList {
    static func files(under directory: URL) throws -> [String] {
        let manager = FileManager.default
        var files: [String] = []
        for folder in ["", "assets", "messages"] {
            let url = folder.isEmpty ? directory : directory.appending(path: folder)
            for name in try manager.contentsOfDirectory(atPath: url.path) where !name.hasPrefix(".") {
                var isDirectory: ObjCBool = false
                let path = folder.isEmpty ? name : "\(folder)/\(name)"
                if manager.fileExists(atPath: directory.appending(path: path).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    files.append(path)
                }
            }
        }
        return files.sorted()
    }
}
