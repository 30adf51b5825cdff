import Crypto
import Foundation

/// Verifies WebAuthn registration and authentication responses as WebAuthn Level 2 §7.1 and §7.2 describe, for the
/// options the demo issues: `attestation: "none"`, ES256 credentials, user presence required, user verification
/// preferred (recorded, not required).
///
/// The credential arrives as the JSON a browser script makes of a `PublicKeyCredential`: `id`, `rawId`, `type` and a
/// `response` whose binary members are base64url strings.
struct WebAuthnVerifier: Sendable {
    let relyingPartyID: String
    let origins: PasskeyOriginPolicy

    init(configuration: DemoServerConfiguration) {
        self.relyingPartyID = configuration.passkeyRelyingPartyID
        self.origins = PasskeyOriginPolicy(configuration: configuration)
    }

    /// Verifies a registration response (`navigator.credentials.create`) to the challenge that was issued.
    func verifyRegistration(_ credential: JSONValue?, challenge: String) -> Result<StoredPasskey, WebAuthnRejection> {
        do throws(WebAuthnRejection) {
            let (rawID, response) = try envelope(of: credential)
            let clientData = try Self.binary(response["clientDataJSON"], "clientDataJSON")
            try checkClientData(clientData, type: "webauthn.create", challenge: challenge)
            let attestationBytes = try Self.binary(response["attestationObject"], "attestationObject")
            let attestation: CBORValue
            do { attestation = try CBORDecoder.decodeWhole(attestationBytes) } catch {
                throw WebAuthnRejection("the attestation object is not valid CBOR")
            }
            guard let format = attestation[text: "fmt"]?.textValue, let statement = attestation[text: "attStmt"],
                let authDataBytes = attestation[text: "authData"]?.bytesValue
            else { throw WebAuthnRejection("the attestation object lacks fmt, attStmt or authData") }
            // The demo asks for no attestation; the browser then conveys the "none" format with an empty statement.
            guard format == "none", case .map(let statementMembers) = statement, statementMembers.isEmpty else {
                throw WebAuthnRejection("only the \"none\" attestation format is accepted")
            }
            let authenticatorData = try checkAuthenticatorData(authDataBytes)
            guard let attested = authenticatorData.attestedCredential else {
                throw WebAuthnRejection("the authenticator data has no attested credential")
            }
            guard attested.credentialID == rawID else { throw WebAuthnRejection("the credential id does not match rawId") }
            return .success(
                StoredPasskey(
                    credentialID: attested.credentialID,
                    publicKey: attested.publicKey.key,
                    signCount: authenticatorData.signCount
                )
            )
        } catch {
            return .failure(error)
        }
    }

    /// Verifies an authentication response (`navigator.credentials.get`) to the challenge that was issued, by one of
    /// the user's `passkeys`, for the user with `userHandle`.
    func verifyAssertion(
        _ credential: JSONValue?,
        challenge: String,
        userHandle: [UInt8],
        passkeys: [StoredPasskey]
    )
        -> Result<VerifiedAssertion, WebAuthnRejection>
    {
        do throws(WebAuthnRejection) {
            let (rawID, response) = try envelope(of: credential)
            guard let passkey = passkeys.first(where: { $0.credentialID == rawID }) else {
                throw WebAuthnRejection("the passkey is not registered for this user")
            }
            if let handle = response["userHandle"], handle != .null {
                guard try Self.binary(handle, "userHandle") == userHandle else { throw WebAuthnRejection("the user handle does not match") }
            }
            let clientData = try Self.binary(response["clientDataJSON"], "clientDataJSON")
            try checkClientData(clientData, type: "webauthn.get", challenge: challenge)
            let authDataBytes = try Self.binary(response["authenticatorData"], "authenticatorData")
            let authenticatorData = try checkAuthenticatorData(authDataBytes)
            let signatureBytes = try Self.binary(response["signature"], "signature")
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signatureBytes) else {
                throw WebAuthnRejection("the signature is not a DER ECDSA signature")
            }
            let signedData = Data(authDataBytes) + Data(SHA256.hash(data: Data(clientData)))
            guard passkey.publicKey.value.isValidSignature(signature, for: signedData) else {
                throw WebAuthnRejection("the signature does not verify")
            }
            return .success(
                VerifiedAssertion(credentialID: rawID, signCount: authenticatorData.signCount, userVerified: authenticatorData.isUserVerified)
            )
        } catch {
            return .failure(error)
        }
    }

    // MARK: Shared checks

    /// `type` is `public-key`, `id` is `rawId` in base64url, and `response` is an object.
    private func envelope(of credential: JSONValue?) throws(WebAuthnRejection) -> ([UInt8], [String: JSONValue]) {
        guard let object = credential?.objectValue else { throw WebAuthnRejection("the credential is not a JSON object") }
        guard object["type"]?.stringValue == "public-key" else { throw WebAuthnRejection("the credential type is not public-key") }
        let rawID = try Self.binary(object["rawId"], "rawId")
        guard let id = object["id"]?.stringValue, Base64URL.decode(id).map({ [UInt8]($0) }) == rawID else {
            throw WebAuthnRejection("the credential id does not match rawId")
        }
        guard let response = object["response"]?.objectValue else { throw WebAuthnRejection("the credential has no response object") }
        return (rawID, response)
    }

    private func checkClientData(_ bytes: [UInt8], type: String, challenge: String) throws(WebAuthnRejection) {
        guard let clientData = CollectedClientData(bytes) else { throw WebAuthnRejection("clientDataJSON is not valid client data") }
        guard clientData.type == type else { throw WebAuthnRejection("the client data type is not \(type)") }
        guard RandomToken.constantTimeEquals(clientData.challenge, challenge) else {
            throw WebAuthnRejection("the challenge is not the one issued for this step")
        }
        guard origins.allows(clientData.origin) else { throw WebAuthnRejection("the origin is not allowed for this relying party") }
        guard !clientData.crossOrigin else { throw WebAuthnRejection("cross-origin ceremonies are not accepted") }
    }

    private func checkAuthenticatorData(_ bytes: [UInt8]) throws(WebAuthnRejection) -> AuthenticatorData {
        let authenticatorData: AuthenticatorData
        do { authenticatorData = try AuthenticatorData(bytes) } catch {
            throw WebAuthnRejection("the authenticator data is malformed (\(error))")
        }
        guard authenticatorData.rpIDHash == Array(SHA256.hash(data: Data(relyingPartyID.utf8))) else {
            throw WebAuthnRejection("the authenticator data is for another relying party")
        }
        guard authenticatorData.isUserPresent else { throw WebAuthnRejection("the user was not present") }
        return authenticatorData
    }

    /// A base64url member as bytes.
    private static func binary(_ value: JSONValue?, _ name: String) throws(WebAuthnRejection) -> [UInt8] {
        guard let text = value?.stringValue, let data = Base64URL.decode(text) else {
            throw WebAuthnRejection("\(name) is missing or not base64url")
        }
        return Array(data)
    }
}
