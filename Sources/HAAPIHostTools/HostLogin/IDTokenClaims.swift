import Foundation

/// Reads claims of an ID token for the one-line summary and for the tools that are handed one (`kube-credential`). The
/// token was received from the token endpoint over the authenticated channel, so its payload is read without verifying
/// the signature; nothing is decided from it but what to tell the person or tool.
public enum IDTokenClaims {
    /// The `sub` claim, if the token is a JWT with one.
    public static func subject(of idToken: String?) -> String? {
        claims(of: idToken)?["sub"] as? String
    }

    /// When the token expires: its `exp` claim (seconds since 1970, RFC 7519 §4.1.4), if the token is a JWT with one.
    public static func expiry(of idToken: String?) -> Date? {
        guard let exp = claims(of: idToken)?["exp"] as? NSNumber else { return nil }
        return Date(timeIntervalSince1970: exp.doubleValue)
    }

    /// The payload of a JWT (its second base64url part) as a JSON object.
    private static func claims(of idToken: String?) -> [String: Any]? {
        guard let idToken else { return nil }
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }
}
