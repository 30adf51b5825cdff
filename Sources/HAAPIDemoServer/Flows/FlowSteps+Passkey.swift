extension FlowSteps {
    /// How long the browser may wait for the authenticator, in milliseconds.
    static let passkeyTimeoutMilliseconds = 120_000

    /// The passkey option's first step: the username, and the password the first time (to create the passkey).
    static func passkeyForm() -> Representation {
        Representation(
            type: "authentication-step",
            metadata: .init(viewName: "authenticator/webauthn/authenticate-device/username"),
            actions: [
                .form(
                    kind: "login",
                    title: "Sign in with a passkey",
                    .post(
                        DemoPaths.passkey,
                        actionTitle: "Continue",
                        fields: [
                            Field(name: "userName", type: "username", label: "Username"),
                            Field(name: "password", type: "password", label: "Password (only to create your first passkey)", required: false),
                        ]
                    )
                )
            ],
            messages: [
                .info("The first time, your password creates a passkey on this device; afterwards the passkey alone signs you in. " + demoUsersHint)
            ]
        )
    }

    /// The `webauthn-registration` client operation for `user` (WebAuthn Level 2 §5.4 creation options).
    static func passkeyRegistration(
        user: DemoUser,
        userHandle: String,
        relyingPartyID: String,
        challenge: String,
        excludedCredentialIDs: [String]
    ) -> Representation {
        let publicKey: JSONValue = .object([
            "rp": .object(["id": .string(relyingPartyID), "name": .string("HAAPI demo server")]),
            "user": .object(["id": .string(userHandle), "name": .string(user.username), "displayName": .string(user.name)]),
            "challenge": .string(challenge),
            "pubKeyCredParams": .array([.object(["type": .string("public-key"), "alg": .number(-7)])]),
            "authenticatorSelection": .object([
                "residentKey": .string("preferred"), "requireResidentKey": .bool(false), "userVerification": .string("preferred"),
            ]),
            "attestation": .string("none"),
            "excludeCredentials": .array(excludedCredentialIDs.map { .object(["type": .string("public-key"), "id": .string($0)]) }),
            "timeout": .number(Double(passkeyTimeoutMilliseconds)),
        ])
        return passkeyOperation(
            type: "registration-step",
            viewName: "authenticator/webauthn/register/get",
            kind: "device-register",
            title: "Create a passkey",
            operation: "webauthn-registration",
            options: ["credentialCreationOptions": .object(["publicKey": publicKey])],
            continuePath: DemoPaths.passkeyRegistration,
            messages: [.info("Create a passkey for \(user.username) on this device.")]
        )
    }

    /// The `webauthn-authentication` client operation over the user's passkeys (WebAuthn Level 2 §5.5 request options).
    static func passkeyAuthentication(relyingPartyID: String, challenge: String, allowedCredentialIDs: [String]) -> Representation {
        let publicKey: JSONValue = .object([
            "challenge": .string(challenge),
            "rpId": .string(relyingPartyID),
            "allowCredentials": .array(allowedCredentialIDs.map { .object(["type": .string("public-key"), "id": .string($0)]) }),
            "userVerification": .string("preferred"),
            "timeout": .number(Double(passkeyTimeoutMilliseconds)),
        ])
        return passkeyOperation(
            type: "authentication-step",
            viewName: "authenticator/webauthn/authenticate-device/get",
            kind: "login",
            title: "Sign in with your passkey",
            operation: "webauthn-authentication",
            options: ["credentialRequestOptions": .object(["publicKey": publicKey])],
            continuePath: DemoPaths.passkeyAssertion
        )
    }

    /// A WebAuthn client operation whose continue action posts the credential (JSON, the `credential` context field) to
    /// `continuePath`, with the password login as its error action.
    private static func passkeyOperation(
        type: String,
        viewName: String,
        kind: String,
        title: String,
        operation: String,
        options: [String: JSONValue],
        continuePath: String,
        messages: [Message]? = nil
    ) -> Representation {
        Representation(
            type: type,
            metadata: .init(viewName: viewName),
            actions: [
                .clientOperation(
                    kind: kind,
                    title: title,
                    ClientOperationModel(
                        name: operation,
                        arguments: options,
                        continueActions: [
                            .form(kind: "continue", title: title, .postJSON(continuePath, actionTitle: title, fields: [.context("credential")]))
                        ],
                        errorActions: [passwordFallback]
                    )
                )
            ],
            messages: messages
        )
    }

    /// The error action of the passkey operations: the username-password login instead.
    static let passwordFallback = Action.form(
        kind: "redirect",
        title: "Sign in with a password instead",
        .get(DemoPaths.htmlForm, actionTitle: "Sign in with a password instead")
    )
}
