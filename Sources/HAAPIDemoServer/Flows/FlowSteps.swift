/// Builds the HAAPI steps of the demo flows, in the shapes of Curity's samples.
enum FlowSteps {
    static let demoUsersHint = "Demo users: demo/demo, otp/otp, poll/poll, consent/consent, sms/sms (and locked/locked, a locked account)."

    /// The authenticator selector.
    static func selector() -> Representation {
        func option(_ title: String, type: String, path: String) -> Action {
            .form(kind: "select-authenticator", title: title, properties: ["authenticatorType": type], .get(path))
        }
        return Representation(
            type: "authentication-step",
            metadata: .init(viewName: "views/select-authenticator/index"),
            actions: [
                .selector(
                    kind: "authenticator-selector",
                    title: "Select Authentication Method",
                    options: [
                        option("Username and password", type: "html-form", path: DemoPaths.htmlForm),
                        option("Email one-time code", type: "email", path: DemoPaths.email),
                        option("Approve on another device", type: "approval", path: DemoPaths.approval),
                        option("External browser", type: "external-browser", path: DemoPaths.externalBrowser),
                        option("BankID", type: "bankid", path: DemoPaths.bankID),
                        option("Passkey", type: "webauthn", path: DemoPaths.passkey),
                    ]
                )
            ],
            messages: [.info(demoUsersHint)]
        )
    }

    /// The username-password form of an authenticator.
    static func passwordForm(authenticatorPath: String) -> Representation {
        let title: String
        switch authenticatorPath {
        case DemoPaths.email: title = "Login, then enter the emailed code"
        case DemoPaths.approval: title = "Login, then approve on another device"
        default: title = "Login"
        }
        return Representation(
            type: "authentication-step",
            metadata: .init(viewName: "authenticator/html-form/authenticate/get", templateArea: "html1"),
            actions: [
                .form(
                    kind: "login",
                    title: title,
                    .post(
                        authenticatorPath,
                        actionTitle: "Login",
                        fields: [
                            Field(name: "userName", type: "username", label: "Username"),
                            Field(name: "password", type: "password", label: "Password"),
                        ]
                    )
                )
            ],
            links: [
                Link(href: DemoPaths.forgotPassword, rel: "forgot-password", title: "Forgot your password?"),
                Link(href: DemoPaths.registerCreate, rel: "register-create", title: "Create account"),
            ]
        )
    }

    /// The demo's "forgot password" page, with a way back.
    static func forgotPassword() -> Representation {
        Representation(
            type: "authentication-step",
            metadata: .init(viewName: "authenticator/html-form/forgot-password/get"),
            actions: [.form(kind: "continue", title: "Back to login", .get(DemoPaths.htmlForm, actionTitle: "Back to login"))],
            messages: [
                .heading("Forgot your password?"),
                .info("This is a demo server: passwords cannot be reset. " + demoUsersHint),
            ]
        )
    }

    /// The demo's "create account" page, with a way back.
    static func registerCreate() -> Representation {
        Representation(
            type: "registration-step",
            metadata: .init(viewName: "authenticator/html-form/create-account/get"),
            actions: [.form(kind: "continue", title: "Back to login", .get(DemoPaths.htmlForm, actionTitle: "Back to login"))],
            messages: [
                .heading("Create account"),
                .info("This is a demo server: accounts cannot be created. " + demoUsersHint),
            ]
        )
    }

    /// The locked-account step after too many wrong passwords.
    static func locked(attempts: Int) -> Representation {
        Representation(
            type: "authentication-step",
            metadata: .init(viewName: "authenticator/html-form/authenticate/locked"),
            actions: [.form(kind: "cancel", title: "Cancel", .post(DemoPaths.cancel, actionTitle: "Cancel"))],
            messages: [
                .error("The account is locked after \(attempts) failed login attempts."),
                .info("This is a demo: start a new login to try again."),
            ]
        )
    }

    /// A redirection-step to an absolute URL.
    static func redirection(to href: String) -> Representation {
        Representation(
            type: "redirection-step",
            metadata: .init(viewName: "templates/redirect"),
            actions: [.form(kind: "redirect", .get(href))]
        )
    }

    /// The notice shown to the demo user after the password. "Email me a copy" answers this step again with an info
    /// message (`sentCopyTo`): it has no `continueActions`, so it is never answered with `continue-same-step`, which
    /// only follows a form that has them ([IOSCS][UIKIT], notes 3.2).
    static func notice(user: DemoUser, formState: String, sentCopyTo recipient: String? = nil) -> Representation {
        Representation(
            type: "authentication-step",
            metadata: .init(viewName: "authenticator/html-form/notice/get"),
            actions: [
                .form(
                    kind: "continue",
                    title: "Continue",
                    .post(DemoPaths.notice, actionTitle: "Continue", fields: [.hidden("_state", formState)])
                ),
                .form(
                    kind: "email-copy",
                    title: "Email me a copy",
                    .post(DemoPaths.noticeEmailCopy, actionTitle: "Email me a copy", fields: [.hidden("_state", formState)])
                ),
            ],
            messages: [
                .heading("Welcome, \(user.name)"),
                .info("You signed in to the demo HAAPI server. Nothing here is a real account."),
            ] + (recipient.map { [.info("A copy was sent to \($0) (see the demo outbox).")] } ?? [])
        )
    }

    /// The consent step: one checkbox per requested scope, `openid` read-only and checked.
    static func consent(user: DemoUser, scopes: [String], clientName: String, formState: String) -> Representation {
        let scopeFields = scopes.map { scope in
            Field(
                name: "consent.scope.\(scope)",
                type: "checkbox",
                label: scope,
                checked: true,
                readonly: scope == "openid" ? true : nil,
                required: scope == "openid" ? nil : false
            )
        }
        return Representation(
            type: "user-consent-step",
            metadata: .init(viewName: "views/oauth/consent"),
            actions: [
                .form(
                    kind: "user-consent",
                    .post(
                        DemoPaths.consent,
                        actionTitle: "Submit Consent",
                        fields: [.hidden("state", formState), .hidden("submit_consent", "submit_consent")] + scopeFields
                    )
                ),
                .form(
                    kind: "cancel",
                    .post(
                        DemoPaths.consent,
                        actionTitle: "Cancel",
                        fields: [.hidden("state", formState), .hidden("cancel_consent", "cancel_consent")]
                    )
                ),
            ],
            messages: [
                .heading(clientName),
                .plain("wants to access your account:"),
                Message(text: user.username, classList: ["userName"]),
                .plain("The following permissions are requested by the above app. Please review these and consent if it is OK."),
            ]
        )
    }

    /// The final `oauth-authorization-response`.
    static func authorizationResponse(redirectURI: String, code: String, state: String?, issuer: String) -> Representation {
        var pairs = [("code", code)]
        var properties = ["code": code, "iss": issuer]
        if let state {
            pairs.append(("state", state))
            properties["state"] = state
        }
        pairs.append(("iss", issuer))
        let separator = redirectURI.contains("?") ? "&" : "?"
        return Representation(
            type: "oauth-authorization-response",
            metadata: .init(viewName: "templates/oauth/success-authorization-response"),
            properties: properties,
            links: [Link(href: redirectURI + separator + FormParameters.encode(pairs), rel: "authorization-response")]
        )
    }
}
