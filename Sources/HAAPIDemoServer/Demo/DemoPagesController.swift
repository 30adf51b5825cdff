import Foundation
import Hummingbird

/// The demo-only pages: the outbox, the approval page and the external-browser login page.
/// They are plain HTTP for a person's browser, not HAAPI.
struct DemoPagesController: Sendable {
    let context: DemoServerContext

    func register(on router: Router<BasicRequestContext>) {
        router.get(RouterPath(DemoPaths.outbox)) { _, _ in DemoResponse.json(["messages": context.outbox.entries]) }
        router.get(RouterPath(DemoPaths.approvePrefix + "{id}")) { _, requestContext in approvalPage(id: requestContext.parameters.get("id") ?? "") }
        router.post(RouterPath(DemoPaths.approvePrefix + "{id}")) { request, requestContext in
            await decide(request, id: requestContext.parameters.get("id") ?? "")
        }
        router.get(RouterPath(DemoPaths.externalBrowserLaunch)) { request, _ in
            let query = FormParameters(encoded: request.uri.query ?? "")
            return launchPage(launchNonce: query["_launch_nonce"] ?? "", redirectURI: query["redirect_uri"], error: nil)
        }
        router.post(RouterPath(DemoPaths.externalBrowserLaunch)) { request, _ in await externalLogin(request) }
    }

    // MARK: Approval

    private func approvalPage(id: String) -> Response {
        guard let found = context.flows.withApproval(id, { flow in (flow.approvalStatus, flow.user?.username ?? "") }) else {
            return DemoResponse.html(
                HTMLPage.render(title: "Unknown approval", body: "<p>This approval link is unknown or has expired.</p>"),
                status: .notFound
            )
        }
        let (status, username) = found
        guard status == .pending else {
            return DemoResponse.html(HTMLPage.render(title: "Already decided", body: "<p>This login was already \(status.rawValue).</p>"))
        }
        let action = HTMLPage.escape(DemoPaths.approvePrefix + id)
        return DemoResponse.html(
            HTMLPage.render(
                title: "Approve login",
                body: """
                    <p>Someone is signing in to the demo HAAPI server as <strong>\(HTMLPage.escape(username))</strong>.</p>
                    <form method="post" action="\(action)"><input type="hidden" name="decision" value="approve"><button type="submit">Approve</button></form>
                    <form method="post" action="\(action)"><input type="hidden" name="decision" value="deny"><button type="submit">Deny</button></form>
                    """
            )
        )
    }

    private func decide(_ request: Request, id: String) async -> Response {
        guard case .success(let text) = await RequestBodyReader(maximumBytes: context.configuration.maximumRequestBodyBytes).text(of: request) else {
            return DemoResponse.html(HTMLPage.render(title: "Bad request", body: "<p>The form could not be read.</p>"), status: .badRequest)
        }
        let form = FormParameters(encoded: text)
        guard let decision = form["decision"], decision == "approve" || decision == "deny" else {
            return DemoResponse.html(HTMLPage.render(title: "Bad request", body: "<p>Choose Approve or Deny.</p>"), status: .badRequest)
        }
        let engine = LoginFlowEngine(context: context)
        guard context.flows.withApproval(id, { engine.decide(&$0, approve: decision == "approve") }) == true else {
            return DemoResponse.html(
                HTMLPage.render(title: "Not possible", body: "<p>This approval is unknown, expired or already decided.</p>"),
                status: .conflict
            )
        }
        let word = decision == "approve" ? "approved" : "denied"
        return DemoResponse.html(HTMLPage.render(title: "Login \(word)", body: "<p>The login was \(word). You can close this page.</p>"))
    }

    // MARK: External browser

    private func launchPage(launchNonce: String, redirectURI: String?, error: String?, status: HTTPResponse.Status = .ok) -> Response {
        guard context.flows.withLaunchNonce(launchNonce, { $0.stage == .externalBrowser && $0.resumeNonce == nil }) == true else {
            return DemoResponse.html(
                HTMLPage.render(title: "Unknown login", body: "<p>This login link is unknown, used or expired.</p>"),
                status: .notFound
            )
        }
        if let redirectURI, Self.acceptableRedirect(redirectURI) == nil {
            return DemoResponse.html(HTMLPage.render(title: "Bad redirect", body: "<p>The redirect_uri is not acceptable.</p>"), status: .badRequest)
        }
        let errorHTML = error.map { "<p class=\"error\">\(HTMLPage.escape($0))</p>" } ?? ""
        return DemoResponse.html(
            HTMLPage.render(
                title: "External browser login (demo)",
                body: """
                    <p>This page stands in for an external identity provider. \(HTMLPage.escape(FlowSteps.demoUsersHint))</p>
                    \(errorHTML)
                    <form method="post" action="\(HTMLPage.escape(DemoPaths.externalBrowserLaunch))">
                    <input type="hidden" name="_launch_nonce" value="\(HTMLPage.escape(launchNonce))">
                    <input type="hidden" name="redirect_uri" value="\(HTMLPage.escape(redirectURI ?? ""))">
                    <label>Username <input name="userName" autocomplete="username"></label>
                    <label>Password <input name="password" type="password" autocomplete="current-password"></label>
                    <button type="submit">Sign in</button>
                    </form>
                    """
            ),
            status: status
        )
    }

    private func externalLogin(_ request: Request) async -> Response {
        guard case .success(let text) = await RequestBodyReader(maximumBytes: context.configuration.maximumRequestBodyBytes).text(of: request) else {
            return DemoResponse.html(HTMLPage.render(title: "Bad request", body: "<p>The form could not be read.</p>"), status: .badRequest)
        }
        let form = FormParameters(encoded: text)
        let launchNonce = form["_launch_nonce"] ?? ""
        let redirectURI = form.nonEmpty("redirect_uri")
        guard let user = form["userName"].flatMap(DemoUser.named), RandomToken.constantTimeEquals(form["password"] ?? "", context.password(of: user))
        else {
            return launchPage(launchNonce: launchNonce, redirectURI: redirectURI, error: "Incorrect username or password.", status: .badRequest)
        }
        var target: URLComponents?
        if let redirectURI {
            guard let components = Self.acceptableRedirect(redirectURI) else {
                return DemoResponse.html(
                    HTMLPage.render(title: "Bad redirect", body: "<p>The redirect_uri is not acceptable.</p>"),
                    status: .badRequest
                )
            }
            target = components
        }
        let engine = LoginFlowEngine(context: context)
        guard let resumeNonce = context.flows.withLaunchNonce(launchNonce, { engine.externalBrowserAuthenticated(&$0, user: user) }) ?? nil else {
            return DemoResponse.html(
                HTMLPage.render(title: "Unknown login", body: "<p>This login link is unknown, used or expired.</p>"),
                status: .notFound
            )
        }
        guard var target else {
            return DemoResponse.html(
                HTMLPage.render(
                    title: "Signed in",
                    body: "<p>Return to the application and enter this resume nonce:</p><p><code>\(HTMLPage.escape(resumeNonce))</code></p>"
                )
            )
        }
        target.queryItems = (target.queryItems ?? []) + [URLQueryItem(name: "_resume_nonce", value: resumeNonce)]
        var headers: HTTPFields = [:]
        headers[.location] = target.string ?? ""
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }

    /// An absolute redirect target with a safe scheme (http, https or an app scheme; never javascript/data/file).
    static func acceptableRedirect(_ text: String) -> URLComponents? {
        guard text.count <= 2048, let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            !["javascript", "data", "file", "vbscript", "blob"].contains(scheme), components.fragment == nil
        else { return nil }
        if scheme == "http" || scheme == "https" { guard components.host?.isEmpty == false else { return nil } }
        return components
    }
}
