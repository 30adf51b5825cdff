import Foundation

@testable import GatewayTestSupport

/// What the package declares, read from the text of `Sources/` and `Tests/` (the docs describe the test support too):
/// the Swift files by name, the modules and the repository's directories, and for a name written in the docs (`Type`,
/// `Type.member`, `Type.member(label:)`, `Outer.Inner.member`) whether it is declared there.
struct SourceDeclarations {
    /// Each Swift file: its name and text.
    let files: [(name: String, text: String)]
    /// The modules (the directories of `Sources/` and `Tests/`) and the repository's top-level directories.
    let modules: Set<String>
    /// Every type's name declared (`struct`, `class`, `enum`, `protocol`, `actor`, `typealias`), and the files that do.
    let typeFiles: [String: [Int]]

    /// Reads every Swift file under `Sources/` and `Tests/`.
    static func read() throws -> SourceDeclarations {
        var modules = Set(try FileManager.default.contentsOfDirectory(atPath: Repository.root.path))
        var files: [(String, String)] = []
        for directory in ["Sources", "Tests"] {
            let root = Repository.root.appendingPathComponent(directory)
            modules.formUnion(try FileManager.default.contentsOfDirectory(atPath: root.path))
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                files.append((url.lastPathComponent, try String(contentsOf: url, encoding: .utf8)))
            }
        }
        var typeFiles: [String: [Int]] = [:]
        for (index, file) in files.enumerated() {
            for match in file.1.matches(of: /(?:struct|class|enum|protocol|actor|typealias) ([A-Za-z_][A-Za-z0-9_]*)/) {
                typeFiles[String(match.output.1), default: []].append(index)
            }
        }
        return SourceDeclarations(files: files, modules: modules, typeFiles: typeFiles)
    }

    /// Whether `name` names what the package has: a module or directory, a Swift file, a type, or a member of a type (one
    /// declared here, or one extended here: `Logger.MetadataValue.untrusted`), with its first argument label when one is
    /// written; a dependency's member only when the code calls it.
    func declares(_ name: String) -> Bool {
        if modules.contains(name) { return true }
        if name.hasSuffix(".swift") { return files.contains { $0.name == name } }
        let call = name.firstIndex(of: "(")
        let path = String(call.map { name[..<$0] } ?? Substring(name))
        let components = path.split(separator: ".").map(String.init)
        guard let first = components.first else { return false }
        if components.count == 1 { return declaresType(first) }
        // A dependency's API (`NIOSingletons.…`): it exists if the code calls it.
        if !declaresType(first), files.contains(where: { $0.text.contains(path) }) { return true }
        let owner = components.dropLast().joined(separator: ".")
        let member = components[components.count - 1]
        let extending = files.filter { $0.text.contains("extension \(owner)") }
        let declaring = (typeFiles[components[components.count - 2]] ?? []).map { files[$0] }
        let ownerFiles = extending + declaring
        guard !ownerFiles.isEmpty, declaresType(first) || !extending.isEmpty else { return false }
        let label = call.flatMap { Self.firstLabel(String(name[$0...])) }
        let memberPattern =
            if let label {
                #"(func|init|subscript) \#(member)\s*(<[^>]*>)?\(\s*\#(label == "_" ? "_ " : label)\b"#
            } else {
                #"((func|var|let|case|typealias|struct|class|enum|actor|protocol) \#(member)\b)|(case [^\n]*\b\#(member)\b)"#
            }
        return ownerFiles.contains { $0.text.range(of: memberPattern, options: .regularExpression) != nil }
    }

    /// Whether a type of that name is declared (`struct`, `class`, `enum`, `protocol`, `actor`, `typealias`).
    func declaresType(_ name: String) -> Bool { typeFiles[name] != nil }

    /// The first argument label of `(label:…)`, nil for `()`, `(…)` or a call written with values.
    static func firstLabel(_ arguments: String) -> String? {
        let inside = arguments.dropFirst().prefix { $0 != ")" }
        guard let colon = inside.firstIndex(of: ":") else { return nil }
        let label = inside[..<colon]
        guard !label.isEmpty, label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return String(label)
    }
}
