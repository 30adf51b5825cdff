import Crypto

/// A credential public key in COSE_Key form (RFC 9052 §7, RFC 9053 §7.1.1), limited to what the demo asks for:
/// EC2 keys on P-256 for ES256 (`kty` 2, `alg` -7, `crv` 1, 32-byte `x` and `y`).
struct COSEPublicKey: Sendable {
    /// Why a COSE key was refused.
    struct Failure: Error, Sendable {
        let reason: String
    }

    let key: ImmutableKey<P256.Signing.PublicKey>

    init(_ value: CBORValue) throws(Failure) {
        guard value.isMap else { throw Failure(reason: "the credential public key is not a map") }
        guard value[integer: 1]?.integerValue == 2 else { throw Failure(reason: "the key type is not EC2") }
        guard value[integer: 3]?.integerValue == -7 else { throw Failure(reason: "the algorithm is not ES256") }
        guard value[integer: -1]?.integerValue == 1 else { throw Failure(reason: "the curve is not P-256") }
        guard let x = value[integer: -2]?.bytesValue, x.count == 32, let y = value[integer: -3]?.bytesValue, y.count == 32 else {
            throw Failure(reason: "the coordinates are not 32 bytes each")
        }
        do {
            self.key = ImmutableKey(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
        } catch {
            throw Failure(reason: "the point is not on the curve")
        }
    }

}
