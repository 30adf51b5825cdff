extension FlowSteps {
    /// The one-time code form.
    static func enterCode(recipient: String) -> Representation {
        Representation(
            type: "authentication-step", metadata: .init(viewName: "authenticator/email/enter-otp/index"),
            actions: [
                .form(
                    kind: "login", title: "Enter the OTP code",
                    .post(
                        DemoPaths.enterOTP, actionTitle: "Verify",
                        fields: [Field(name: "otp", type: "text", label: "OTP code", kind: "number", minLength: 6, maxLength: 6)]))
            ],
            links: [Link(href: DemoPaths.authenticate, rel: "restart", title: "Restart")],
            messages: [.plain("The OTP code was sent to the following recipient: \(recipient)")])
    }

    /// A polling step for the approval on another device.
    static func polling(
        status: ApprovalStatus, approvalURL: String, recipient: String, maxWaitSeconds: Int, remainingSeconds: Int,
        intervalSeconds: Int, timedOut: Bool
    ) -> Representation {
        switch (status, timedOut) {
        case (.pending, false):
            return Representation(
                type: "polling-step", metadata: .init(viewName: "authenticator/approval/wait/index"),
                properties: [
                    "status": "pending", "recipientOfCommunication": recipient, "maxWaitTime": String(maxWaitSeconds),
                    "maxWaitRemainingTime": String(remainingSeconds), "pollInterval": String(intervalSeconds),
                ],
                actions: [
                    .form(kind: "poll", .get(DemoPaths.approvalPoller)),
                    .form(kind: "cancel", title: "Cancel", .post(DemoPaths.approvalCancel, actionTitle: "Cancel")),
                ],
                links: [
                    Link(
                        href: DemoImage.pngDataURI(for: approvalURL), rel: "activation",
                        title: "Demo image for the approval link (not a scannable code)", type: "image/png")
                ],
                messages: [
                    .plain("Approve the login on another device. The approval link was sent to \(recipient)."),
                    .info("Demo: open \(approvalURL) or see the demo outbox."),
                ])
        case (.approved, _):
            return Representation(
                type: "polling-step", metadata: .init(viewName: "authenticator/approval/wait/index"),
                properties: ["status": "done"],
                actions: [.form(kind: "redirect", .post(DemoPaths.approvalPoller, fields: [.hidden("moveOn", "true")]))])
        case (.denied, _), (.pending, true):
            let reason = status == .denied ? "The login was denied on the other device." : "The approval timed out."
            return Representation(
                type: "polling-step", metadata: .init(viewName: "authenticator/approval/wait/index"),
                properties: ["status": "failed"],
                actions: [.form(kind: "redirect", title: "Start over", .get(DemoPaths.authenticate, actionTitle: "Start over"))],
                messages: [.error(reason)])
        }
    }

    /// The external-browser client operation.
    static func externalBrowser(launchURL: String) -> Representation {
        Representation(
            type: "authentication-step", metadata: .init(viewName: "authenticator/external-browser/launch"),
            actions: [
                .clientOperation(
                    kind: "login", title: "Sign in with an external browser",
                    ClientOperationModel(
                        name: "external-browser-flow", arguments: ["href": .string(launchURL)],
                        continueActions: [
                            .form(
                                kind: "continue", title: "If you are not redirected automatically, click here to continue authenticating",
                                .post(DemoPaths.externalBrowser, fields: [.context("_resume_nonce")]))
                        ]))
            ])
    }
}
