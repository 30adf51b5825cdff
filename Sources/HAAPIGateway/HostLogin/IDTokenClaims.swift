import Foundation

/// Reads claims of an ID token for the one-line summary. The token was just received from the token endpoint over the
/// authenticated channel, so its payload is read without verifying the signature; nothing is decided from it.
public enum IDTokenClaims {
    /// The `sub` claim, if the token is a JWT with one.
    public static func subject(of idToken: String?) -> String? {
        guard let idToken else { return nil }
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["sub"] as? String
    }
}
