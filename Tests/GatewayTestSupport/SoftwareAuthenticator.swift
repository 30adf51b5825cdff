import Crypto
import Foundation

/// A WebAuthn authenticator in software for the tests: one ES256 credential, registration responses with the "none"
/// attestation and signed assertions, as the JSON a browser script makes of a `PublicKeyCredential` (binary members in
/// base64url). Every part a relying party checks can be changed to test its refusal.
struct SoftwareAuthenticator {
    /// What the client data and authenticator data say; the defaults are what an honest browser sends.
    struct Ceremony {
        var challenge: String
        var origin: String
        var relyingPartyID: String
        var type: String
        var crossOrigin = false
        var flags: UInt8 = 0x05
    }

    let privateKey = P256.Signing.PrivateKey()
    let credentialID: [UInt8]
    /// The signature counter of the last assertion (a test may wind it back to play a cloned authenticator).
    var signCount: UInt32 = 0

    init(credentialID: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }) {
        self.credentialID = credentialID
    }

    var credentialIDText: String { Self.base64url(credentialID) }

    /// The ceremony of `navigator.credentials.create` for creation options (`publicKey` member) and a page origin.
    static func creation(_ publicKey: [String: Any], origin: String) -> Ceremony {
        let rp = publicKey["rp"] as? [String: Any] ?? [:]
        return Ceremony(
            challenge: publicKey["challenge"] as? String ?? "",
            origin: origin,
            relyingPartyID: rp["id"] as? String ?? "",
            type: "webauthn.create"
        )
    }

    /// The ceremony of `navigator.credentials.get` for request options (`publicKey` member) and a page origin.
    static func request(_ publicKey: [String: Any], origin: String) -> Ceremony {
        Ceremony(
            challenge: publicKey["challenge"] as? String ?? "",
            origin: origin,
            relyingPartyID: publicKey["rpId"] as? String ?? "",
            type: "webauthn.get"
        )
    }

    /// A registration response; `attestationObject` replaces the CBOR when given (malformed input).
    func registration(_ ceremony: Ceremony, attestationObject: [UInt8]? = nil) -> [String: Any] {
        let x963 = Array(privateKey.publicKey.x963Representation)
        let coseKey = CBORWriter.encode(
            .map([
                (.integer(1), .integer(2)), (.integer(3), .integer(-7)), (.integer(-1), .integer(1)),
                (.integer(-2), .bytes(Array(x963[1..<33]))), (.integer(-3), .bytes(Array(x963[33..<65]))),
            ])
        )
        let attested = [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID + coseKey
        let authData = Self.authenticatorData(ceremony, flags: ceremony.flags | 0x40, signCount: signCount) + attested
        let attestation =
            attestationObject
            ?? CBORWriter.encode(.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData))]))
        return envelope(response: [
            "clientDataJSON": Self.base64url(Self.clientData(ceremony)), "attestationObject": Self.base64url(attestation),
            "transports": ["internal"],
        ])
    }

    /// An assertion signed by the credential; the counter goes up by one. `corruptSignature` flips a bit of the signed data.
    mutating func assertion(_ ceremony: Ceremony, userHandle: String?, corruptSignature: Bool = false) -> [String: Any] {
        signCount += 1
        let authData = Self.authenticatorData(ceremony, flags: ceremony.flags, signCount: signCount)
        let clientData = Self.clientData(ceremony)
        var signed = Data(authData) + Data(SHA256.hash(data: clientData))
        if corruptSignature { signed[0] ^= 0x01 }
        let signature = try! privateKey.signature(for: signed).derRepresentation
        var response: [String: Any] = [
            "clientDataJSON": Self.base64url(clientData), "authenticatorData": Self.base64url(authData), "signature": Self.base64url(signature),
        ]
        response["userHandle"] = userHandle ?? NSNull()
        return envelope(response: response)
    }

    private func envelope(response: [String: Any]) -> [String: Any] {
        [
            "id": credentialIDText, "rawId": credentialIDText, "type": "public-key", "authenticatorAttachment": "platform",
            "clientExtensionResults": [String: Any](), "response": response,
        ]
    }

    private static func authenticatorData(_ ceremony: Ceremony, flags: UInt8, signCount: UInt32) -> [UInt8] {
        Array(SHA256.hash(data: Data(ceremony.relyingPartyID.utf8))) + [flags]
            + [UInt8(signCount >> 24), UInt8(signCount >> 16 & 0xff), UInt8(signCount >> 8 & 0xff), UInt8(signCount & 0xff)]
    }

    private static func clientData(_ ceremony: Ceremony) -> Data {
        let object: [String: Any] = [
            "type": ceremony.type, "challenge": ceremony.challenge, "origin": ceremony.origin, "crossOrigin": ceremony.crossOrigin,
        ]
        return try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    static func base64url<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Encodes a credential for a JSON body or a form field.
    static func json(_ credential: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: credential, options: [.sortedKeys]), as: UTF8.self)
    }
}
