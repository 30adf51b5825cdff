/// The authenticator data of a WebAuthn response (WebAuthn Level 2 §6.1): the RP ID hash, the flags, the signature
/// counter and, after a registration, the attested credential data.
struct AuthenticatorData: Sendable {
    /// The attested credential data (§6.5.1), present when the AT flag is set.
    struct AttestedCredential: Sendable {
        let aaguid: [UInt8]
        let credentialID: [UInt8]
        let publicKey: COSEPublicKey
    }

    /// Why authenticator data could not be read.
    enum Failure: Error, Sendable, Equatable {
        case tooShort
        case credentialIDTooLong
        case malformedCBOR
        case unsupportedKey(String)
        case trailingBytes
        case missingExtensions
    }

    static let userPresent: UInt8 = 0x01
    static let userVerified: UInt8 = 0x04
    static let attestedCredentialIncluded: UInt8 = 0x40
    static let extensionsIncluded: UInt8 = 0x80

    /// The longest credential id the spec allows.
    static let maximumCredentialIDLength = 1023

    let bytes: [UInt8]
    let rpIDHash: [UInt8]
    let flags: UInt8
    let signCount: UInt32
    let attestedCredential: AttestedCredential?

    var isUserPresent: Bool { flags & Self.userPresent != 0 }
    var isUserVerified: Bool { flags & Self.userVerified != 0 }

    /// Parses authenticator data; every byte must belong to a declared part.
    init(_ bytes: [UInt8]) throws(Failure) {
        guard bytes.count >= 37 else { throw .tooShort }
        self.bytes = bytes
        self.rpIDHash = Array(bytes[0..<32])
        self.flags = bytes[32]
        self.signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        if flags & Self.attestedCredentialIncluded != 0 {
            guard bytes.count >= position + 18 else { throw .tooShort }
            let aaguid = Array(bytes[position..<position + 16])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard length <= Self.maximumCredentialIDLength else { throw .credentialIDTooLong }
            guard bytes.count >= position + length else { throw .tooShort }
            let credentialID = Array(bytes[position..<position + length])
            position += length
            var decoder = CBORDecoder(bytes, from: position)
            let key: CBORValue
            do { key = try decoder.decodeItem() } catch { throw .malformedCBOR }
            position = decoder.position
            let publicKey: COSEPublicKey
            do throws(COSEPublicKey.Failure) { publicKey = try COSEPublicKey(key) } catch { throw .unsupportedKey(error.reason) }
            self.attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: publicKey)
        } else {
            self.attestedCredential = nil
        }
        if flags & Self.extensionsIncluded != 0 {
            guard position < bytes.count else { throw .missingExtensions }
            var decoder = CBORDecoder(bytes, from: position)
            let extensions: CBORValue
            do { extensions = try decoder.decodeItem() } catch { throw .malformedCBOR }
            guard extensions.isMap else { throw .malformedCBOR }
            position = decoder.position
        }
        guard position == bytes.count else { throw .trailingBytes }
    }
}
