extension FlowSteps {
    /// The one-time code form.
    static func enterCode(recipient: String) -> Representation {
        Representation(
            type: "authentication-step",
            metadata: .init(viewName: "authenticator/email/enter-otp/index"),
            actions: [
                .form(
                    kind: "login",
                    title: "Enter the OTP code",
                    .post(
                        DemoPaths.enterOTP,
                        actionTitle: "Verify",
                        fields: [Field(name: "otp", type: "text", label: "OTP code", kind: "number", minLength: 6, maxLength: 6)]
                    )
                )
            ],
            links: [Link(href: DemoPaths.authenticate, rel: "restart", title: "Restart")],
            messages: [.plain("The OTP code was sent to the following recipient: \(recipient)")]
        )
    }

    /// What a pending polling step shows: the activation link (what the other device opens, as the link itself: the
    /// client draws the QR code) and the messages.
    struct PendingView: Sendable {
        let viewName: String
        let activation: Link
        let messages: [Message]
        /// The masked address the approval link went to, if any.
        var recipient: String? = nil
        /// An image link hosted on this server (not a `data:` URI), if any.
        var illustration: Link? = nil
    }

    /// The approval on another device (poll/poll): the approval page's URL, to scan or open.
    static func approvalView(approvalURL: String, recipient: String) -> PendingView {
        PendingView(
            viewName: "authenticator/approval/wait/index",
            activation: Link(href: approvalURL, rel: "activation", title: "Scan to approve on another device"),
            messages: [
                .plain("Approve the login on another device. The approval link was sent to \(recipient)."),
                .info("Demo: open \(approvalURL) or see the demo outbox."),
            ],
            recipient: recipient,
            // Curity steps may carry image links whose href is on the server (relative), not a `data:` URI (notes 3.10);
            // the client fetches it with the flow's credentials.
            illustration: Link(href: DemoPaths.waitingImage, rel: "illustration", title: "Waiting for approval", type: "image/png")
        )
    }

    /// BankID waiting for the app: the autostart link, to scan with a phone (a static code; the demo's stand-in for
    /// BankID's animated QR, which only a relying party holding the QR secret can draw).
    static func bankIDView(autoStartToken: String) -> PendingView {
        PendingView(
            viewName: "authenticator/bankid/wait/index",
            activation: Link(
                href: "bankid:///?autostarttoken=\(autoStartToken)&redirect=null",
                rel: "activation",
                title: "Scan the code in BankID security app"
            ),
            messages: [
                .info("Trying to start your BankID app"),
                .info("Demo: approve with the link in the demo outbox (it stands in for the BankID app)."),
            ]
        )
    }

    /// The BankID client operation (same device): open the app, then continue to the waiting step.
    static func bankIDLaunch(autoStartToken: String) -> Representation {
        Representation(
            type: "authentication-step",
            metadata: .init(viewName: "authenticator/bankid/launch/index"),
            actions: [
                .clientOperation(
                    kind: "login",
                    title: "Login with BankID",
                    ClientOperationModel(
                        name: "bankid",
                        arguments: [
                            "href": .string("bankid:///?autostarttoken=\(autoStartToken)&redirect=null"), "autoStartToken": .string(autoStartToken),
                            "redirect": .string("null"),
                        ],
                        continueActions: [
                            .form(kind: "redirect", .get(DemoPaths.approvalPoller, actionTitle: "Continue"))
                        ]
                    )
                )
            ]
        )
    }

    /// A polling step for the approval on another device.
    static func polling(
        status: ApprovalStatus,
        view: PendingView,
        maxWaitSeconds: Int,
        remainingSeconds: Int,
        intervalSeconds: Int,
        timedOut: Bool
    ) -> Representation {
        switch (status, timedOut) {
        case (.pending, false):
            return Representation(
                type: "polling-step",
                metadata: .init(viewName: view.viewName),
                // `interval`: the recommended polling interval in milliseconds, as a string ([UIKIT] polling step, notes 3.7);
                // `pollInterval` (seconds) exists only in Curity's HTML templates, never in HAAPI JSON.
                properties: [
                    "status": "pending", "maxWaitTime": String(maxWaitSeconds), "maxWaitRemainingTime": String(remainingSeconds),
                    "interval": String(intervalSeconds * 1000),
                ].merging(view.recipient.map { ["recipientOfCommunication": $0] } ?? [:]) { first, _ in first },
                actions: [
                    .form(kind: "poll", .get(DemoPaths.approvalPoller)),
                    .form(kind: "cancel", title: "Cancel", .post(DemoPaths.approvalCancel, actionTitle: "Cancel")),
                ],
                links: [view.activation] + (view.illustration.map { [$0] } ?? []),
                messages: view.messages
            )
        case (.approved, _):
            return Representation(
                type: "polling-step",
                metadata: .init(viewName: view.viewName),
                properties: ["status": "done"],
                actions: [.form(kind: "redirect", .post(DemoPaths.approvalPoller, fields: [.hidden("moveOn", "true")]))]
            )
        case (.denied, _), (.pending, true):
            let reason = status == .denied ? "The login was denied on the other device." : "The approval timed out."
            return Representation(
                type: "polling-step",
                metadata: .init(viewName: view.viewName),
                properties: ["status": "failed"],
                actions: [.form(kind: "redirect", title: "Start over", .get(DemoPaths.authenticate, actionTitle: "Start over"))],
                messages: [.error(reason)]
            )
        }
    }

    /// The external-browser client operation.
    static func externalBrowser(launchURL: String) -> Representation {
        Representation(
            type: "authentication-step",
            metadata: .init(viewName: "authenticator/external-browser/launch"),
            actions: [
                .clientOperation(
                    kind: "login",
                    title: "Sign in with an external browser",
                    ClientOperationModel(
                        name: "external-browser-flow",
                        arguments: ["href": .string(launchURL)],
                        continueActions: [
                            .form(
                                kind: "continue",
                                title: "If you are not redirected automatically, click here to continue authenticating",
                                .post(DemoPaths.externalBrowser, fields: [.context("_resume_nonce")])
                            )
                        ]
                    )
                )
            ]
        )
    }
}
