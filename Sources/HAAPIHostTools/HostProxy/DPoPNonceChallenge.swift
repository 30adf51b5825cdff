import Foundation

/// A resource server's demand for a DPoP nonce (RFC 9449 §9): `401` with a `DPoP` challenge whose `error` is
/// `use_dpop_nonce`, and the nonce to use in `DPoP-Nonce`. The request is then sent again, once, with a proof carrying
/// that nonce.
public enum DPoPNonceChallenge {
    /// The nonce a response demands, when it is such a challenge.
    /// - Parameters:
    ///   - status: The response's status.
    ///   - fields: Its header fields, names as sent.
    public static func demandedNonce(status: Int, fields: [(name: String, value: String)]) -> String? {
        guard status == 401, let nonce = offeredNonce(fields) else { return nil }
        let challenges = fields.filter { $0.name.lowercased() == "www-authenticate" }.flatMap { Self.challenges(in: $0.value) }
        return challenges.contains { $0.scheme == "dpop" && $0.parameters["error"] == "use_dpop_nonce" } ? nonce : nil
    }

    /// The `DPoP-Nonce` a response carries, challenge or not (a server may give the next nonce with any response, RFC
    /// 9449 §8.2).
    public static func offeredNonce(_ fields: [(name: String, value: String)]) -> String? {
        fields.last { $0.name.lowercased() == "dpop-nonce" }.map { $0.value.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The challenges of one `WWW-Authenticate` value (RFC 9110 §11.6.1): each scheme (lower-cased) with its
    /// parameters (names lower-cased, quoted values unquoted).
    static func challenges(in value: String) -> [(scheme: String, parameters: [String: String])] {
        var challenges: [(scheme: String, parameters: [String: String])] = []
        for item in commaSeparated(value) {
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            let space = trimmed.firstIndex(of: " "), equals = trimmed.firstIndex(of: "=")
            var parameter = Substring(trimmed)
            let startsChallenge = equals.map { equals in space.map { $0 < equals } ?? false } ?? true
            if startsChallenge {
                // A new challenge: its scheme, and maybe its first parameter after the space.
                let scheme = trimmed[..<(space ?? trimmed.endIndex)]
                challenges.append((scheme.lowercased(), [:]))
                parameter = space.map { trimmed[trimmed.index(after: $0)...] } ?? ""
            }
            guard let split = parameter.firstIndex(of: "="), !challenges.isEmpty else { continue }
            let name = parameter[..<split].trimmingCharacters(in: .whitespaces).lowercased()
            challenges[challenges.count - 1].parameters[name] = unquoted(parameter[parameter.index(after: split)...])
        }
        return challenges
    }

    /// `value` split at the commas outside quoted strings.
    private static func commaSeparated(_ value: String) -> [String] {
        var items: [String] = [], current = "", quoted = false, escaped = false
        for character in value {
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                items.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        items.append(current)
        return items
    }

    /// A parameter's value: a token as it is, a quoted string without its quotes and escapes.
    private static func unquoted(_ value: Substring) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") else { return trimmed }
        var result = "", escaped = false
        for character in trimmed.dropFirst().dropLast() {
            if !escaped, character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }
}
