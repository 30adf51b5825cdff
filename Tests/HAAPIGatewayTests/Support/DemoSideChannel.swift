import AsyncHTTPClient
import Foundation
import HAAPIDemoServer
import NIOCore

@testable import GatewayTestSupport

/// What a person would do outside the browser tab: read the demo outbox, approve on "another device".
enum DemoSideChannel {
    static func outbox(_ demo: RunningDemoServer) async throws -> [[String: Any]] {
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: demo.baseURL.appendingPathComponent("demo/outbox").absoluteString),
            timeout: .seconds(10)
        )
        let body = try await response.body.collect(upTo: 1 << 20)
        let object = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
        return object?["messages"] as? [[String: Any]] ?? []
    }

    static func decideApproval(_ demo: RunningDemoServer, approve: Bool) async throws {
        guard let link = try await outbox(demo).first(where: { $0["link"] is String })?["link"] as? String else {
            throw TestBrowser.BrowserError("no approval link in the outbox")
        }
        var request = HTTPClientRequest(url: link)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: "decision=\(approve ? "approve" : "deny")"))
        _ = try await HTTPClient.shared.execute(request, timeout: .seconds(10)).body.collect(upTo: 1 << 20)
    }
}

extension DemoSideChannel {
    /// Signs in on the demo's external-browser page as `user` (its launch link, as the gateway's page gives it) and
    /// returns where the browser is sent next (the launch link's `redirect_uri` with the resume code).
    static func signInExternally(launchURL: String, user: String) async throws -> String {
        guard let components = URLComponents(string: launchURL), let items = components.queryItems,
            let launchNonce = items.first(where: { $0.name == "_launch_nonce" })?.value
        else { throw TestBrowser.BrowserError("not a launch link: \(launchURL)") }
        let redirectURI = items.first { $0.name == "redirect_uri" }?.value ?? ""
        var target = components
        target.query = nil
        var request = HTTPClientRequest(url: target.string ?? launchURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        var body = URLComponents()
        body.queryItems = [
            URLQueryItem(name: "_launch_nonce", value: launchNonce), URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "userName", value: user), URLQueryItem(name: "password", value: user),
        ]
        request.body = .bytes(ByteBuffer(string: body.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B") ?? ""))
        // Not following the redirect: that is the browser's next request, made with its cookie.
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        defer { Task { try? await client.shutdown() } }
        let response = try await client.execute(request, timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status.code == 303, let location = response.headers.first(name: "Location") else {
            throw TestBrowser.BrowserError("the demo's external page answered \(response.status.code)")
        }
        return location
    }
}
