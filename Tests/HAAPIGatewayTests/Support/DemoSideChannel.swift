import AsyncHTTPClient
import Foundation
import HAAPIDemoServer
import NIOCore
@testable import GatewayTestSupport

/// What a person would do outside the browser tab: read the demo outbox, approve on "another device".
enum DemoSideChannel {
    static func outbox(_ demo: RunningDemoServer) async throws -> [[String: Any]] {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: demo.baseURL.appendingPathComponent("demo/outbox").absoluteString), timeout: .seconds(10))
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
