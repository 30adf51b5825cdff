import Foundation

/// The delivery ids pending in a spool file, read as a reader of the format would: JSON Lines, each `{"add":{…}}` (a
/// delivery with its `id` and `sink`) or `{"doneID":…,"doneSink":…}` (done for that sink).
enum SpooledDeliveries {
    static func ids(in path: String) throws -> [String] {
        var added: [(id: String, sink: String)] = []
        var done: Set<String> = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            guard let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if let add = record["add"] as? [String: Any], let id = add["id"] as? String, let sink = add["sink"] as? String {
                added.append((id, sink))
            }
            if let id = record["doneID"] as? String, let sink = record["doneSink"] as? String { done.insert(id + "|" + sink) }
        }
        return added.filter { !done.contains($0.id + "|" + $0.sink) }.map(\.id)
    }
}
