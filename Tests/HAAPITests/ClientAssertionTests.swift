import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPI

/// Signed-JWT client authentication with the algorithms Curity clients use ([CLIENTAUTH], notes 1.2): every assertion the
/// client sends is verified by PyJWT (with Python's cryptography), a JOSE implementation this project did not write,
/// with a key it made itself.
@Suite(.enabled(if: TestTools.jwtReferenceAvailable, "needs Python's PyJWT and cryptography (pip install 'pyjwt[crypto]')"))
struct ClientAssertionTests {
    typealias Up = TestUpstream

    /// Makes a key with Python's cryptography: the private key as PKCS#8 PEM for the client, the public key for PyJWT.
    static let makeKey = """
        import sys
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec, rsa
        key = ec.generate_private_key(ec.SECP256R1()) if sys.argv[1] == "ES256" else rsa.generate_private_key(65537, 2048)
        open(sys.argv[2], "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
        open(sys.argv[3], "wb").write(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
        """

    /// Verifies an assertion: signature with the given key and algorithm only, `aud`, `iss`, `exp`; prints the header's
    /// `alg` and the claims' `sub`.
    static let verify = """
        import sys, jwt
        alg, key_file, token, audience = sys.argv[1:5]
        key = open(key_file).read()
        claims = jwt.decode(token, key, algorithms=[alg], audience=audience, issuer="demo-gateway", options={"require": ["exp", "iat", "jti", "sub"]})
        print(jwt.get_unverified_header(token)["alg"], claims["sub"])
        """

    static func python(_ script: String, _ arguments: [String]) async throws -> ProcessResult {
        try await runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments)
    }

    @Test(.startsPrograms(), arguments: ["ES256", "RS256", "PS256", "HS256"])
    func assertionsVerifyWithAnIndependentJOSELibrary(algorithm: String) async throws {
        let directory = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let privateKey = directory.appendingPathComponent("private.pem")
        let verificationKey = directory.appendingPathComponent("verification.key")
        let authentication: ClientAuthentication
        if algorithm == "HS256" {
            let secret = "a client secret of at least thirty-two bytes"
            try Data(secret.utf8).write(to: verificationKey)
            authentication = .secretJWT(secret)
        } else {
            let made = try await Self.python(Self.makeKey, [algorithm, privateKey.path, verificationKey.path])
            #expect(made.status == 0, "\(made.standardError)")
            let pem = try String(contentsOf: privateKey, encoding: .utf8)
            authentication = .privateKeyJWT(privateKeyPEM: pem, keyID: "k1", algorithm: try #require(ClientAssertionAlgorithm(rawValue: algorithm)))
        }
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            default: .step(Up.loginStep)
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base) { $0.clientAuthentication = authentication }
            defer { Task { try? await client.shutdown() } }
            _ = try await client.makeFlow().start()
            let request = try #require(await log.requests(path: Up.tokenPath).first)
            #expect(request.formValues["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
            #expect(request.header("Authorization") == nil)
            let assertion = try #require(request.formValues["client_assertion"])
            let verified = try await Self.python(Self.verify, [algorithm, verificationKey.path, assertion, base.absoluteString + Up.tokenPath])
            #expect(verified.status == 0, "\(verified.standardError)")
            #expect(verified.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "\(algorithm) demo-gateway")
            // The same assertion fails under any other algorithm: the header names the one used.
            let other = algorithm == "RS256" ? "PS256" : "RS256"
            let refused = try await Self.python(Self.verify, [other, verificationKey.path, assertion, base.absoluteString + Up.tokenPath])
            #expect(refused.status != 0)
        }
    }

    @Test func keysThatDoNotFitTheAlgorithmAreRefusedByName() {
        let rsaLike = "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n"
        for algorithm in ClientAssertionAlgorithm.allCases {
            var configuration = Up.configuration(URL(string: "https://idsvr.example")!)
            configuration.clientAuthentication = .privateKeyJWT(privateKeyPEM: rsaLike, algorithm: algorithm)
            #expect(configuration.problems.contains { $0.contains(algorithm.rawValue) })
        }
        var configuration = Up.configuration(URL(string: "https://idsvr.example")!)
        configuration.clientAuthentication = .secretJWT("short")
        #expect(configuration.problems.contains { $0.contains("32 bytes") })
    }
}
