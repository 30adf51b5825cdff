import Foundation

/// Everything a ``HAAPIFlow`` holds, as a value: saved with ``HAAPIFlow/exportState()`` and made into a flow again with
/// ``HAAPIClient/restoreFlow(_:)``, in this process or another one (a restart, another replica), so that a sign-in
/// survives either.
///
/// A restored flow behaves as the saved one would have: the same DPoP key (same `jkt`), HAAPI token until it expires (then
/// a new one is fetched, as always), `Session-Id`, upstream cookies and DPoP nonce; the same PKCE verifier and `state`
/// for the code exchange, OIDC `nonce` for ``HAAPIFlow/validateIDToken(of:now:)``, scopes and authorize parameters; the
/// same current step, and the same last submitted form for a `continue-same-step` answer. Times are wall-clock
/// (`Date`) times, so the clocks of the machines involved should agree; a token saved with little time left is
/// simply fetched again.
///
/// > Important: The state is a secret. It carries the flow's DPoP **private key**, its HAAPI access token, the PKCE
/// > verifier, the session id and cookies, and the current step (which can hold personal data or, at the end, the
/// > authorization code). Store it only encrypted and authenticated (the gateway seals it with AES-GCM before it reaches
/// > the database), never log it, and delete it when the flow ends. Printing a state (`description`,
/// > `debugDescription`, `dump`) shows none of these values.
///
/// Encode it with any `Encoder` (`JSONEncoder` gives a compact document); decoding a state of another
/// ``formatVersion`` throws ``HAAPIError/Code/invalidFlowState`` before anything else is read.
public struct HAAPIFlowState: Codable, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The format this library writes and reads.
    public static let currentFormatVersion = 1

    /// The format of this state; ``HAAPIClient/restoreFlow(_:)`` refuses any other than ``currentFormatVersion``.
    public var formatVersion: Int
    /// The client id of the client that saved the state; a client with another one refuses to restore it.
    public var clientID: String
    /// The upstream origin (`scheme://host:port`) of the client that saved the state; a client of another origin refuses
    /// to restore it, so a flow's token, session id and key never go to another server.
    public var upstreamOrigin: String
    /// The flow's DPoP private key (P-256), PKCS#8 PEM. Secret.
    public var dpopPrivateKeyPEM: String
    /// The flow's HAAPI access token, when it has one. Secret.
    public var haapiToken: Token?
    /// The flow's session id (sent as `Session-Id`). Secret.
    public var sessionID: String?
    /// The latest `DPoP-Nonce` the server gave the flow.
    public var dpopNonce: String?
    /// The cookies the upstream set for the flow. Their values are secret.
    public var cookies: [Cookie]
    /// The PKCE code verifier. Secret.
    public var codeVerifier: String
    /// The OAuth `state` of the authorize request.
    public var oauthState: String
    /// The OpenID Connect `nonce` of the authorize request, when the flow asks for `openid`.
    public var oidcNonce: String?
    /// The scopes the flow asks for.
    public var scopes: [String]
    /// The extra authorize parameters of the flow.
    public var authorizationParameters: AuthorizationParameters
    /// The flow's current step (``HAAPIFlow/currentStep``) as JSON text, read back with the library's step decoder; nil
    /// before the first step.
    public var currentStep: String?
    /// The form action submitted last, as JSON text: a `continue-same-step` answer continues with its `continueActions`.
    public var lastSubmittedAction: String?
    /// Whether the flow was started (its authorize request sent).
    public var started: Bool
    /// Whether the flow's authorization code was exchanged (the flow is complete).
    public var codeExchanged: Bool
    /// Whether the flow's authorize request carried `dpop_jkt` (its code is bound to the flow's key, and the exchange is
    /// proved with it). Absent in states saved before it was kept: false.
    public var authorizeCarriedDPoPJKT: Bool = false

    enum CodingKeys: String, CodingKey {
        case formatVersion, clientID, upstreamOrigin, dpopPrivateKeyPEM, haapiToken, sessionID, dpopNonce, cookies, codeVerifier
        case oauthState, oidcNonce, scopes, authorizationParameters, currentStep, lastSubmittedAction, started, codeExchanged
        case authorizeCarriedDPoPJKT
    }

    /// The format version, the client, whether the flow started or completed, and which secrets are present; no secret.
    public var description: String {
        "HAAPIFlowState(formatVersion: \(formatVersion), clientID: \(clientID), upstreamOrigin: \(upstreamOrigin), started: \(started), codeExchanged: \(codeExchanged), haapiToken: \(haapiToken == nil ? "none" : "<redacted>"), sessionID: \(sessionID == nil ? "none" : "<redacted>"), cookies: \(cookies.count), currentStep: \(currentStep == nil ? "none" : "<redacted>"), DPoP key and PKCE verifier <redacted>)"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The members that are not secret, so that `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "formatVersion": formatVersion, "clientID": clientID, "upstreamOrigin": upstreamOrigin, "started": started,
                "codeExchanged": codeExchanged, "scopes": scopes, "cookies": cookies,
            ],
            displayStyle: .struct
        )
    }
}

extension HAAPIFlowState {
    /// Decodes a state, reading ``formatVersion`` first.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: ``HAAPIError/Code/invalidFlowState`` for another format version than ``currentFormatVersion``; the
    ///   decoder's errors for a state that is not one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        try Self.checkFormatVersion(formatVersion)
        self.init(
            formatVersion: formatVersion,
            clientID: try container.decode(String.self, forKey: .clientID),
            upstreamOrigin: try container.decode(String.self, forKey: .upstreamOrigin),
            dpopPrivateKeyPEM: try container.decode(String.self, forKey: .dpopPrivateKeyPEM),
            haapiToken: try container.decodeIfPresent(Token.self, forKey: .haapiToken),
            sessionID: try container.decodeIfPresent(String.self, forKey: .sessionID),
            dpopNonce: try container.decodeIfPresent(String.self, forKey: .dpopNonce),
            cookies: try container.decode([Cookie].self, forKey: .cookies),
            codeVerifier: try container.decode(String.self, forKey: .codeVerifier),
            oauthState: try container.decode(String.self, forKey: .oauthState),
            oidcNonce: try container.decodeIfPresent(String.self, forKey: .oidcNonce),
            scopes: try container.decode([String].self, forKey: .scopes),
            authorizationParameters: try container.decode(AuthorizationParameters.self, forKey: .authorizationParameters),
            currentStep: try container.decodeIfPresent(String.self, forKey: .currentStep),
            lastSubmittedAction: try container.decodeIfPresent(String.self, forKey: .lastSubmittedAction),
            started: try container.decode(Bool.self, forKey: .started),
            codeExchanged: try container.decode(Bool.self, forKey: .codeExchanged),
            authorizeCarriedDPoPJKT: try container.decodeIfPresent(Bool.self, forKey: .authorizeCarriedDPoPJKT) ?? false
        )
    }

    /// Refuses a format this library does not know.
    static func checkFormatVersion(_ version: Int) throws(HAAPIError) {
        guard version == currentFormatVersion else {
            throw HAAPIError(
                .invalidFlowState,
                "the saved flow state has format version \(version); this library reads version \(currentFormatVersion) only"
            )
        }
    }
}
