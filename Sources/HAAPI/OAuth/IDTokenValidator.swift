import Foundation
import Logging

/// Validates ID tokens as OpenID Connect Core 1.0 §3.1.3.7 asks before any of their claims is trusted: the signature
/// against the upstream's JWK Set (`jwks_uri`), `iss` equal to the discovery's issuer, `aud` containing the client id,
/// `azp` equal to it when present (required when there are several audiences), `exp` not passed (beyond
/// ``clockSkew``), the `nonce` the flow sent, and a `sub`.
///
/// The JWK Set is fetched through the library's transport when first needed, kept, fetched again once when a token
/// names a `kid` the kept set lacks (a key rotated in; at most every ``minimumRefetchInterval``), and again after
/// ``keySetMaximumAge`` (a key rotated out). Concurrent validations share one fetch.
///
/// ```swift
/// let token = try await validator.validate(tokens.idToken!, nonce: nonceSentInTheAuthorizeRequest)
/// print(token.subject)
/// ```
public actor IDTokenValidator {
    /// The issuer every token must name in `iss` (the discovery document's `issuer`).
    public nonisolated let issuer: String
    /// The client id every token's `aud` must contain.
    public nonisolated let clientID: String
    /// Where the keys are published (`jwks_uri`).
    public nonisolated let keySetURL: URL
    /// How far past `exp` a token is still accepted, for clocks that differ a little.
    public nonisolated let clockSkew: Duration
    /// The shortest time between two fetches of the JWK Set for an unknown `kid` (a token naming keys that do not exist
    /// cannot make the gateway fetch at its pace).
    public nonisolated let minimumRefetchInterval: Duration
    /// How long a fetched JWK Set is used before it is fetched again (a key withdrawn by the upstream stops being
    /// trusted within this time). When that fetch fails, the set kept is used meanwhile.
    public nonisolated let keySetMaximumAge: Duration

    private let send: @Sendable (HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData
    private let logger: Logger
    private var keySet: JSONWebKeySet?
    private var fetchedAt: ContinuousClock.Instant?
    /// When the set was last fetched again for a token whose key it lacked.
    private var lastFetchForUnknownKey: ContinuousClock.Instant?
    private var fetching: Task<Result<JSONWebKeySet, IDTokenValidationError>, Never>?

    /// Creates a validator that fetches the JWK Set through `transport`.
    /// - Parameters:
    ///   - issuer: The issuer (`iss`) every token must name.
    ///   - clientID: The client id (`aud`, `azp`).
    ///   - keySetURL: The upstream's `jwks_uri`.
    ///   - transport: How the JWK Set is fetched.
    ///   - requestTimeout: The limit of one fetch.
    ///   - maximumKeySetBytes: The largest JWK Set accepted.
    ///   - clockSkew: How far past `exp` a token is still accepted (default 60 s).
    ///   - minimumRefetchInterval: The shortest time between fetches for an unknown `kid` (default 5 s).
    ///   - keySetMaximumAge: How long a fetched set is used (default one hour).
    ///   - logger: Receives debug output only; never a token or claim.
    public init(
        issuer: String,
        clientID: String,
        keySetURL: URL,
        transport: any HAAPITransport,
        requestTimeout: Duration = .seconds(5),
        maximumKeySetBytes: Int = 1 << 20,
        clockSkew: Duration = .seconds(60),
        minimumRefetchInterval: Duration = .seconds(5),
        keySetMaximumAge: Duration = .seconds(3600),
        logger: Logger = Logger(label: "haapi")
    ) {
        self.init(
            issuer: issuer,
            clientID: clientID,
            keySetURL: keySetURL,
            clockSkew: clockSkew,
            minimumRefetchInterval: minimumRefetchInterval,
            keySetMaximumAge: keySetMaximumAge,
            logger: logger
        ) { (request: HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData in
            guard let timeout = HAAPIDeadline.remaining(of: requestTimeout) else {
                throw HAAPIError(.timeout, "the time for the whole request was used up before the JWKS was fetched")
            }
            do {
                return try await transport.send(request, timeout: timeout, maxBodyBytes: maximumKeySetBytes)
            } catch {
                throw AsyncHTTPClientTransport.map(error, phase: "fetching the JWKS")
            }
        }
    }

    /// Creates a validator that fetches with `send` (a client's transport, timeout and body cap).
    init(
        issuer: String,
        clientID: String,
        keySetURL: URL,
        clockSkew: Duration = .seconds(60),
        minimumRefetchInterval: Duration = .seconds(5),
        keySetMaximumAge: Duration = .seconds(3600),
        logger: Logger,
        send: @escaping @Sendable (HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.keySetURL = keySetURL
        self.clockSkew = clockSkew
        self.minimumRefetchInterval = minimumRefetchInterval
        self.keySetMaximumAge = keySetMaximumAge
        self.logger = logger
        self.send = send
    }

    /// Validates `idToken` and returns its claims.
    /// - Parameters:
    ///   - idToken: The compact JWS from the token endpoint.
    ///   - nonce: The `nonce` sent in the authorize request, or nil when none was sent.
    ///   - now: The time to check `exp` against.
    /// - Returns: The token's subject and claims.
    /// - Throws: ``IDTokenValidationError`` naming the first check that failed (the signature is checked before any claim).
    public func validate(_ idToken: String, nonce: String?, now: Date = Date()) async throws(IDTokenValidationError) -> ValidatedIDToken {
        let token = try SignedJWT(idToken)
        // RFC 7515 §4.1.1, Core §3.1.3.7 items 7–8: only the accepted asymmetric algorithms; never `none` or an HMAC.
        guard let name = token.header["alg"]?.stringValue, let algorithm = JWSAlgorithm(rawValue: name) else {
            // RFC 9864's fully-specified name for EdDSA with Ed448.
            if token.header["alg"]?.stringValue == "Ed448" { throw Self.signedWithEd448 }
            let named = token.header["alg"]?.stringValue.map { " '\(Self.printable($0))'" } ?? ""
            throw IDTokenValidationError(
                .unsupportedAlgorithm,
                "the ID token's algorithm\(named) is not accepted (\(JWSAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        // RFC 7515 §4.1.11: a critical extension the validator does not understand makes the token invalid.
        guard token.header["crit"] == nil else {
            throw IDTokenValidationError(.unsupportedAlgorithm, "the ID token's header names critical extensions (crit), which are not understood")
        }
        let keyID = token.header["kid"]?.stringValue
        let candidates = try await keys(keyID: keyID, algorithm: algorithm)
        guard candidates.contains(where: { $0.verifies(token.signature, of: token.signingInput, with: algorithm) }) else {
            throw IDTokenValidationError(.invalidSignature, "the ID token's signature does not verify with the upstream's key")
        }
        let claims = token.claims
        // Core §3.1.3.7 item 2: iss exactly the issuer of the discovery document.
        guard claims["iss"]?.stringValue == issuer else {
            throw IDTokenValidationError(.wrongIssuer, "the ID token's iss is not the upstream's issuer")
        }
        // Item 3: aud (a string or an array of strings) contains the client id.
        let audiences: [String]
        switch claims["aud"] {
        case .string(let audience)?: audiences = [audience]
        case .array(let values)?: audiences = values.compactMap(\.stringValue)
        default: audiences = []
        }
        guard audiences.contains(clientID) else {
            throw IDTokenValidationError(.wrongAudience, "the ID token's aud does not contain the client id")
        }
        // Items 4–5: with several audiences azp must be present; when present it must be the client id.
        let authorizedParty = claims["azp"]
        if audiences.count > 1 || authorizedParty != nil {
            guard authorizedParty?.stringValue == clientID else {
                throw IDTokenValidationError(
                    .wrongAuthorizedParty,
                    authorizedParty == nil ? "the ID token has several audiences but no azp" : "the ID token's azp is not the client id"
                )
            }
        }
        // Item 9: the current time before exp (with the allowed skew).
        guard case .number(let expiry)? = claims["exp"] else {
            throw IDTokenValidationError(.expired, "the ID token has no exp")
        }
        guard now.timeIntervalSince1970 < expiry + Self.seconds(clockSkew) else {
            throw IDTokenValidationError(.expired, "the ID token expired (exp has passed)")
        }
        // Item 11: the nonce of the authorize request.
        if let nonce {
            guard let sent = claims["nonce"]?.stringValue else {
                throw IDTokenValidationError(.wrongNonce, "the ID token has no nonce, but the authorize request sent one")
            }
            guard Self.constantTimeEquals(sent, nonce) else {
                throw IDTokenValidationError(.wrongNonce, "the ID token's nonce is not the one the authorize request sent")
            }
        }
        // Core §2: sub is required, a locally unique identifier.
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw IDTokenValidationError(.missingSubject, "the ID token has no sub")
        }
        return ValidatedIDToken(subject: subject, claims: claims, algorithm: algorithm, keyID: keyID)
    }

    /// The keys that may have signed a token with `keyID` and `algorithm`: from the kept set (fetched when there is none
    /// or it is older than ``keySetMaximumAge``), fetched again once when it has none of them.
    private func keys(keyID: String?, algorithm: JWSAlgorithm) async throws(IDTokenValidationError) -> [JSONWebKey] {
        var set: JSONWebKeySet
        var fetchedNow = false
        if let kept = keySet, let fetchedAt, ContinuousClock.now - fetchedAt < keySetMaximumAge {
            set = kept
        } else {
            do {
                set = try await fetchKeySet()
                fetchedNow = true
            } catch {
                guard let kept = keySet else { throw error }
                logger.notice(
                    "the upstream's JWKS could not be fetched again; the kept one is used",
                    metadata: ["reason": "\(error.reason.rawValue)"]
                )
                set = kept
            }
        }
        var candidates = set.candidates(keyID: keyID, algorithm: algorithm)
        if candidates.isEmpty, !fetchedNow, lastFetchForUnknownKey.map({ ContinuousClock.now - $0 >= minimumRefetchInterval }) ?? true {
            // A key rotated in since the set was fetched (RFC 7517 §5, Core §10.1.1).
            logger.debug("no key of the kept JWKS fits the ID token; fetching it again")
            lastFetchForUnknownKey = .now
            set = try await fetchKeySet()
            candidates = set.candidates(keyID: keyID, algorithm: algorithm)
        }
        guard !candidates.isEmpty else {
            // EdDSA names no curve (RFC 8037 §3.1): only the set tells that the token needs an Ed448 key.
            if algorithm == .edDSA, set.hasEd448Key(keyID: keyID) { throw Self.signedWithEd448 }
            throw IDTokenValidationError(
                .unknownKey,
                keyID == nil
                    ? "no key of the upstream's JWKS can verify \(algorithm.rawValue)"
                    : "the upstream's JWKS has no \(algorithm.rawValue) key with the ID token's kid"
            )
        }
        return candidates
    }

    /// Fetches the JWK Set, or waits for the fetch under way, and keeps it.
    private func fetchKeySet() async throws(IDTokenValidationError) -> JSONWebKeySet {
        if let fetching { return try await fetching.value.get() }
        let send = send, url = keySetURL
        let task = Task { () async -> Result<JSONWebKeySet, IDTokenValidationError> in
            do throws(IDTokenValidationError) {
                return .success(try await Self.download(url, send: send))
            } catch {
                return .failure(error)
            }
        }
        fetching = task
        let result = await task.value
        fetching = nil
        if case .success(let set) = result {
            keySet = set
            fetchedAt = .now
            logger.debug("JWKS fetched", metadata: ["keys": .stringConvertible(set.keys.count)])
        }
        return try result.get()
    }

    /// Fetches and reads a JWK Set once.
    static func download(
        _ url: URL,
        send: @Sendable (HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData
    ) async throws(IDTokenValidationError) -> JSONWebKeySet {
        let response: HTTPResponseData
        do {
            response = try await send(HTTPRequestData(method: "GET", url: url, headers: [("Accept", "application/jwk-set+json, application/json")]))
        } catch {
            throw IDTokenValidationError(.keySetUnavailable, "the upstream's JWKS could not be fetched (\(error.code))")
        }
        guard (200..<300).contains(response.status) else {
            throw IDTokenValidationError(.keySetUnavailable, "the upstream's JWKS answered HTTP \(response.status)")
        }
        return try JSONWebKeySet(json: response.body)
    }

    /// The refusal of a token signed with Ed448, which swift-crypto cannot verify: it says what to change upstream.
    private static var signedWithEd448: IDTokenValidationError {
        IDTokenValidationError(
            .unsupportedAlgorithm,
            "the ID token is signed with Ed448, which this gateway cannot validate; use an Ed25519, EC or RSA signing key in the token profile"
        )
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Letters, digits and `_-.+` of `text`, at most 32 characters: a header value fit for a message.
    private static func printable(_ text: String) -> String {
        String(text.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.+".contains($0)) }.prefix(32))
    }

    private static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
