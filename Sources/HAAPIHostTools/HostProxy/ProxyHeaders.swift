import Foundation

/// Which header fields `haapi-gateway proxy` passes on, each way.
///
/// Hop-by-hop fields (RFC 9110 §7.6.1: `Connection` and every field it names, `Proxy-Connection`, `Keep-Alive`, `TE`,
/// `Transfer-Encoding`, `Upgrade`) belong to one connection and are never passed on, nor are `Proxy-Authorization` and
/// `Proxy-Authenticate` (RFC 9110 §11.7: between a client and a proxy). Towards the target, the client's
/// `Authorization` and `DPoP` are dropped (the proxy sets its own), and so are `Host` and `Content-Length` (the HTTP
/// client sets them for the target and the body it sends) and `Expect`. Everything else, `Cookie` included, is the
/// client's to send to the one origin the proxy forwards to, and passes as it is.
public enum ProxyHeaders {
    /// The hop-by-hop fields and the proxy's own (lower-cased), dropped both ways.
    static let hopByHop: Set<String> = [
        "connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade", "proxy-authorization", "proxy-authenticate",
    ]

    /// The fields a request to the target never takes from the client (lower-cased).
    static let replacedTowardsTarget: Set<String> = ["authorization", "dpop", "host", "content-length", "expect"]

    /// The client's fields to send to the target.
    /// - Parameter fields: The request's fields, in order, names as sent.
    public static func towardsTarget(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let dropped = hopByHop.union(replacedTowardsTarget).union(namedByConnection(fields))
        return fields.filter { !dropped.contains($0.name.lowercased()) }
    }

    /// The target's fields to send back to the client.
    /// - Parameter fields: The response's fields, in order, names as sent.
    public static func towardsClient(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let dropped = hopByHop.union(namedByConnection(fields))
        return fields.filter { !dropped.contains($0.name.lowercased()) }
    }

    /// The fields the `Connection` fields name (lower-cased): hop-by-hop for this message (RFC 9110 §7.6.1).
    static func namedByConnection(_ fields: [(name: String, value: String)]) -> Set<String> {
        var named = Set<String>()
        for field in fields where field.name.lowercased() == "connection" {
            for option in field.value.split(separator: ",") {
                let name = option.trimmingCharacters(in: .whitespaces).lowercased()
                if !name.isEmpty { named.insert(name) }
            }
        }
        return named
    }
}
