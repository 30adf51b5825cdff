import Foundation

/// A Containerfile (Dockerfile syntax) as its stages and instructions, for a test that assembles what a build copies and
/// starts what the image runs, as a container runtime would. Comments and line continuations are read; JSON-array
/// forms (`ENTRYPOINT ["a", "b"]`) are parsed.
struct Containerfile {
    struct Instruction {
        /// `FROM`, `COPY`, `RUN`, `ENV`, …
        let keyword: String
        /// The rest of the line.
        let arguments: String
    }

    struct Stage {
        /// The image it starts from.
        let base: String
        /// Its name (`AS name`), if any.
        let name: String?
        let instructions: [Instruction]

        /// Its `COPY` instructions without `--from`: (sources relative to the build context, destination).
        var contextCopies: [(sources: [String], destination: String)] {
            instructions.filter { $0.keyword == "COPY" && !$0.arguments.hasPrefix("--from") }.map { instruction in
                let words = instruction.arguments.split(separator: " ").map(String.init)
                return (Array(words.dropLast()), words.last ?? "")
            }
        }

        /// The last value of `keyword` (`WORKDIR`, `USER`, `STOPSIGNAL`).
        func last(_ keyword: String) -> String? {
            instructions.last { $0.keyword == keyword }?.arguments
        }

        /// Every `ENV` variable (`NAME=value` pairs, several per instruction).
        var environment: [String: String] {
            var variables: [String: String] = [:]
            for instruction in instructions where instruction.keyword == "ENV" {
                for pair in instruction.arguments.split(separator: " ") {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    variables[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
                }
            }
            return variables
        }

        /// `ENTRYPOINT` in its JSON-array form.
        var entryPoint: [String] {
            guard let text = last("ENTRYPOINT"), let data = text.data(using: .utf8),
                let words = try? JSONSerialization.jsonObject(with: data) as? [String]
            else { return [] }
            return words
        }
    }

    let stages: [Stage]

    init(contentsOf url: URL) throws {
        var logical: [String] = []
        var pending = ""
        for raw in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if pending.isEmpty, line.hasPrefix("#") || line.isEmpty { continue }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            logical.append(pending + line)
            pending = ""
        }
        var stages: [Stage] = []
        var current: (base: String, name: String?, instructions: [Instruction])?
        for line in logical {
            let keyword = String(line.prefix { $0 != " " }).uppercased()
            let arguments = line.dropFirst(keyword.count).trimmingCharacters(in: .whitespaces)
            if keyword == "FROM" {
                if let current { stages.append(Stage(base: current.base, name: current.name, instructions: current.instructions)) }
                let words = arguments.split(separator: " ").map(String.init)
                current = (words[0], words.count == 3 && words[1].uppercased() == "AS" ? words[2] : nil, [])
            } else {
                current?.instructions.append(Instruction(keyword: keyword, arguments: arguments.replacingOccurrences(of: "  ", with: " ")))
            }
        }
        if let current { stages.append(Stage(base: current.base, name: current.name, instructions: current.instructions)) }
        self.stages = stages
    }
}
