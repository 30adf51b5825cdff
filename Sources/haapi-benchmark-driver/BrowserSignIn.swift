import AsyncHTTPClient
import Foundation
import NIOCore

/// One demo/demo sign-in through the gateway as a browser does it: `GET /`, then each button a form post whose 303 is
/// followed with `GET /`, the session cookie sent back. Each step is timed from the request to the page that needs
/// the person (or the signed-in page); finding the form on the page is the driver's work and stays outside the timing.
/// Each request goes to the next gateway of `gateways` (replicas sharing their sessions behind a round-robin balancer).
struct BrowserSignIn {
    let client: HTTPClient
    let gateways: GatewayRotation

    func run() async throws -> [Duration] {
        var formFinding = Duration.zero
        return try await run(formFindingCPU: &formFinding)
    }

    /// One sign-in's step durations; `formFindingCPU` grows by the CPU time this process spent finding the forms on the
    /// pages (outside the timings, as a browser's reading of a page is no part of the gateway's answer).
    func run(formFindingCPU: inout Duration) async throws -> [Duration] {
        let clock = ContinuousClock()
        var cookie: String?
        var timings: [Duration] = []
        var page = ""
        timings.append(
            try await clock.measure {
                let response = try await get("/", cookie: nil)
                cookie = response.cookie
                page = response.body
            }
        )
        guard cookie != nil else { throw DriverError("the gateway set no session cookie") }
        let presses: [(find: (String) throws -> PageForm, values: [String: String])] = [
            ({ try PageForm.first(in: $0, button: "Username and password") }, [:]),
            ({ try PageForm.first(in: $0, withInputNamed: "password") }, ["userName": "demo", "password": "demo"]),
            ({ try PageForm.first(in: $0, button: "Continue") }, [:]),
        ]
        for (find, values) in presses {
            let findingStarted = ProcessCPUTime.now()
            let form = try find(page)
            formFindingCPU += ProcessCPUTime.now() - findingStarted
            timings.append(try await clock.measure { page = try await press(form, values, cookie: &cookie) })
        }
        guard page.contains("<h1>Signed in</h1>") else {
            let heading = page.range(of: "<h1>").map { String(page[$0.upperBound...].prefix { $0 != "<" }) } ?? "none"
            throw DriverError("the last page is not the signed-in page but '\(heading)'")
        }
        return timings
    }

    /// `GET /healthz` of the first gateway: one HTTP exchange on the same connections, with next to no work on the
    /// gateway's side.
    func healthCheck() async throws {
        let response = try await client.execute(HTTPClientRequest(url: gateways.bases[0] + "/healthz"), timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 16)
        guard response.status == .ok else { throw DriverError("the gateway answered GET /healthz with \(response.status.code)") }
    }

    /// Posts a form with its hidden values and `values`, then follows the 303 as a browser does (taking the new session
    /// cookie the gateway sets after sign-in).
    private func press(_ form: PageForm, _ values: [String: String], cookie: inout String?) async throws -> String {
        var request = HTTPClientRequest(url: gateways.next() + form.action)
        request.method = .POST
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Origin", value: "null")
        request.headers.add(name: "Sec-Fetch-Site", value: "same-origin")
        request.headers.add(name: "Accept-Language", value: "en")
        request.body = .bytes(ByteBuffer(string: form.encoded(with: values)))
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status.code == 303, let location = response.headers.first(name: "Location") else {
            throw DriverError("the gateway answered a form post with \(response.status.code)")
        }
        if let rotated = Self.cookie(in: response.headers.first(name: "Set-Cookie")) { cookie = rotated }
        return try await get(location, cookie: cookie).body
    }

    private func get(_ path: String, cookie: String?) async throws -> (body: String, cookie: String?) {
        var request = HTTPClientRequest(url: gateways.next() + path)
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        request.headers.add(name: "Accept-Language", value: "en")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw DriverError("the gateway answered GET \(path) with \(response.status.code)") }
        return (String(buffer: body), Self.cookie(in: response.headers.first(name: "Set-Cookie")))
    }

    /// `name=value` of a `Set-Cookie` header.
    private static func cookie(in setCookie: String?) -> String? {
        setCookie.map { String($0.prefix { $0 != ";" }) }
    }
}
