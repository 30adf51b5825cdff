import AsyncHTTPClient
import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
import NIOCore

/// A demo server on a free loopback port plus a `HAAPIClient` configured for it, and the demo-only
/// side channels (outbox, approval page, external-browser page) that a person would use.
struct DemoUpstream {
    let server: RunningDemoServer
    let client: HAAPIClient

    /// Starts a demo server and a client for its `demo-gateway` client; `configure` changes the demo's configuration.
    static func start(
        requireDPoPNonce: Bool = false,
        clientAuthentication: ((RunningDemoServer) throws -> ClientAuthentication)? = nil,
        clientKeyPath: String? = nil,
        bindTokensToDPoP: Bool = true,
        scopes: [String] = ["openid", "profile", "email"],
        configure: (inout DemoServerConfiguration) -> Void = { _ in }
    ) async throws -> DemoUpstream {
        var quiet = Logger(label: "haapi-demo-server")
        quiet.logLevel = .critical
        var demo = DemoServerConfiguration(requireDPoPNonce: requireDPoPNonce, clientKeyPath: clientKeyPath)
        configure(&demo)
        let server = try await DemoServer.start(configuration: demo, logger: quiet)
        do {
            let authentication = try clientAuthentication?(server) ?? .secretBasic(DemoServer.clientSecret)
            let configuration = HAAPIClientConfiguration(
                baseURL: server.issuerURL,
                clientID: DemoServer.clientID,
                clientAuthentication: authentication,
                redirectURI: DemoServer.redirectURI,
                scopes: scopes,
                bindTokensToDPoP: bindTokensToDPoP
            )
            let client = try await HAAPIClient(configuration: configuration)
            return DemoUpstream(server: server, client: client)
        } catch {
            await server.shutdown()
            throw error
        }
    }

    func shutdown() async {
        try? await client.shutdown()
        await server.shutdown()
    }

    /// Runs `body` with this upstream, then shuts it down, also when `body` throws.
    func closing(_ body: (DemoUpstream) async throws -> Void) async throws {
        do {
            try await body(self)
        } catch {
            await shutdown()
            throw error
        }
        await shutdown()
    }

    /// `GET /demo/outbox`: the messages the demo server "sent", newest first.
    func outbox() async throws -> [[String: Any]] {
        let body = try await Self.fetch(server.baseURL.appendingPathComponent("demo/outbox").absoluteString)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        return object?["messages"] as? [[String: Any]] ?? []
    }

    /// Posts a decision on the demo approval page, as a person on another device would.
    func decideApproval(link: String, approve: Bool) async throws {
        _ = try await Self.fetch(link, form: "decision=\(approve ? "approve" : "deny")")
    }

    /// Signs in on the demo's external-browser page and returns the resume nonce handed to `redirectTarget`.
    func externalBrowserLogin(launchHref: String, redirectTarget: String, username: String, password: String) async throws -> String? {
        var launch = URLComponents(string: launchHref, resolvingAgainstBaseURL: server.baseURL)
        launch.queryItems = (launch.queryItems ?? []) + [URLQueryItem(name: "redirect_uri", value: redirectTarget)]
        let page = String(decoding: try await Self.fetch(launch.url!.absoluteString), as: UTF8.self)
        // The page is a plain HTML form; read its hidden launch nonce as a browser would submit it.
        guard let launchNonce = Self.hiddenValue(named: "_launch_nonce", in: page) else { return nil }
        let form = [("_launch_nonce", launchNonce), ("redirect_uri", redirectTarget), ("userName", username), ("password", password)]
            .map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
        var request = HTTPClientRequest(url: launch.url!.absoluteString.components(separatedBy: "?")[0])
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: form))
        // The redirect goes to the client's own target: read it, as the client's redirect handler would, never follow it.
        let noRedirects = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        defer { _ = noRedirects.shutdown() }
        let response = try await noRedirects.execute(request, timeout: .seconds(10))
        guard (300..<400).contains(Int(response.status.code)), let location = response.headers.first(name: "Location") else { return nil }
        return URLComponents(string: location)?.queryItems?.first { $0.name == "_resume_nonce" }?.value
    }

    /// A GET, or a POST of `form` (urlencoded) when given.
    static func fetch(_ url: String, form: String? = nil) async throws -> Data {
        var request = HTTPClientRequest(url: url)
        if let form {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        return Data(buffer: body)
    }

    static func hiddenValue(named name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}

extension URLComponents {
    fileprivate init(string: String, resolvingAgainstBaseURL base: URL) {
        let url = URL(string: string, relativeTo: base)?.absoluteURL ?? base
        self = URLComponents(url: url, resolvingAgainstBaseURL: true) ?? URLComponents()
    }
}
