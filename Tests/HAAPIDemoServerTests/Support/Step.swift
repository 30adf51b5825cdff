import Foundation

/// Read access to a HAAPI step's JSON.
struct Step {
    let json: [String: Any]
    init(_ response: TestResponse) { json = response.json }

    var type: String? { json["type"] as? String }
    var viewName: String? { (json["metadata"] as? [String: Any])?["viewName"] as? String }
    var actions: [[String: Any]] { json["actions"] as? [[String: Any]] ?? [] }
    var links: [[String: Any]] { json["links"] as? [[String: Any]] ?? [] }
    var messages: [String] { (json["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String } }
    var properties: [String: Any] { json["properties"] as? [String: Any] ?? [:] }

    func action(kind: String) -> [String: Any]? { actions.first { $0["kind"] as? String == kind } }

    /// The selector option with the given authenticatorType.
    func option(_ authenticatorType: String) -> [String: Any]? {
        let options = (actions.first?["model"] as? [String: Any])?["options"] as? [[String: Any]] ?? []
        return options.first { ($0["properties"] as? [String: Any])?["authenticatorType"] as? String == authenticatorType }
    }

    func link(rel: String) -> [String: Any]? { links.first { $0["rel"] as? String == rel } }
}
