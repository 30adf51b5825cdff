import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A minimal browser: a cookie jar, no automatic redirects (it follows 303s to its own site itself; a redirect elsewhere
/// is returned as the page), forms posted as urlencoded.
final class TestBrowser: @unchecked Sendable {
    struct Page {
        let status: Int
        let headers: [(String, String)]
        let html: String
        var forms: [ScrapedForm] { ScrapedForm.all(in: html) }

        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }

        /// The page in one line for a failure's first line (CI shows only that): its status, title and heading.
        var summary: String {
            func text(of element: String) -> String? {
                guard let open = html.range(of: "<\(element)"), let start = html[open.upperBound...].range(of: ">"),
                    let close = html[start.upperBound...].range(of: "</\(element)>")
                else { return nil }
                let inner = html[start.upperBound..<close.lowerBound]
                    .replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
                    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                return inner.isEmpty ? nil : inner
            }
            let parts = ["HTTP \(status)", text(of: "title").map { "title '\($0)'" }, text(of: "h1").map { "heading '\($0)'" }]
            return parts.compactMap { $0 }.joined(separator: ", ")
        }

        func form(button: String) throws -> ScrapedForm {
            guard let form = forms.first(where: { $0.button == button }) else {
                throw BrowserError("no form with button '\(button)' in \(summary):\n\(html)")
            }
            return form
        }
    }

    struct BrowserError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Where requests go: one gateway, or several taken in turn request by request, as a round-robin load balancer sends
    /// them (redirects included).
    let baseURLs: [String]
    /// The first gateway (the only one, unless several take turns).
    var baseURL: String { baseURLs[0] }
    /// The gateway each request went to, in order.
    private(set) var served: [String] = []
    private var jar = TestCookieJar()
    /// The cookies this browser holds, by name.
    var cookies: [String: String] { jar.values }
    private(set) var setCookieHeaders: [String] = []
    /// Every response this browser received, redirects included, as status line, headers and body (what a canary
    /// test searches for secrets).
    private(set) var transcript: [String] = []
    /// Every `Location` header this browser received, in order.
    private(set) var locations: [String] = []
    /// The browser's language preference, sent as `Accept-Language` on every request.
    private(set) var acceptLanguage: String?
    /// Its connections are closed after 10 s unused, well before the servers close theirs (the gateway and the demo server
    /// after 30 s): with AsyncHTTPClient's 60 s, a device's browser left unused while the person signed in on a loaded
    /// machine sent its next request on a connection the gateway was closing ("I/O on closed channel", "Connection reset
    /// by peer" in a fresh-clone run of the suite), which a browser would have sent again and this client does not.
    private let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(redirectConfiguration: .disallow, connectionPool: .init(idleTimeout: .seconds(10)))
    )

    init(baseURL: String) {
        self.baseURLs = [baseURL]
    }

    /// A browser whose requests go to `baseURLs` in turn.
    init(roundRobin baseURLs: [String]) {
        precondition(!baseURLs.isEmpty)
        self.baseURLs = baseURLs
    }

    func shutdown() async throws { try await client.shutdown() }

    /// Puts a cookie in the jar (another tab of the same browser, or a cookie copied to a second one).
    func setCookie(_ name: String, _ value: String) { jar.set(name, value) }

    /// Sets the `Accept-Language` sent from now on.
    func prefer(languages: String) { acceptLanguage = languages }

    /// The `Host` sent from now on, as a browser sends it when it reaches the gateway by that name through a proxy.
    private(set) var hostName: String?

    /// Names the gateway `host` in every request from now on (its connection still goes to ``baseURL``).
    func address(as host: String) { hostName = host }

    /// GET a path, following redirects.
    func get(_ path: String, headers: [(String, String)] = []) async throws -> Page {
        try await send(path, method: .GET, body: nil, headers: headers)
    }

    /// A `HEAD` request, as link checkers and chat previews send (its cookies kept like any other answer's).
    func head(_ path: String, headers: [(String, String)] = []) async throws -> Page {
        try await send(path, method: .HEAD, body: nil, headers: headers)
    }

    /// GET / with a given Cookie header (bypassing the jar).
    func send(cookie: String) async throws -> Page {
        try await send("/", method: .GET, body: nil, headers: [("Cookie", cookie)])
    }

    /// Submits a form (optionally changing field values), following the redirect.
    func submit(_ form: ScrapedForm, _ values: [String: String] = [:], headers: [(String, String)] = []) async throws -> Page {
        var form = form
        for (name, value) in values { form.fields[name] = value }
        return try await post(form.action, body: form.urlEncoded, headers: headers)
    }

    /// POST a raw urlencoded body, following the redirect.
    func post(_ path: String, body: String, headers: [(String, String)] = []) async throws -> Page {
        try await send(path, method: .POST, body: body, headers: headers)
    }

    /// POST raw bytes as an urlencoded body (invalid UTF-8 included), following the redirect.
    func post(_ path: String, bytes: [UInt8], headers: [(String, String)] = []) async throws -> Page {
        try await exchange(path, method: .POST, body: ByteBuffer(bytes: bytes), headers: headers)
    }

    private func send(_ path: String, method: HTTPMethod, body: String?, headers: [(String, String)]) async throws -> Page {
        try await exchange(path, method: method, body: body.map { ByteBuffer(string: $0) }, headers: headers)
    }

    /// Submits a form without following its redirect: the 303 itself (the moment between a post and the page after it).
    func submitStopping(_ form: ScrapedForm, _ values: [String: String] = [:]) async throws -> Page {
        var form = form
        for (name, value) in values { form.fields[name] = value }
        return try await exchange(form.action, method: .POST, body: ByteBuffer(string: form.urlEncoded), headers: [], following: false)
    }

    private func exchange(
        _ path: String,
        method: HTTPMethod,
        body: ByteBuffer?,
        headers: [(String, String)],
        following: Bool = true
    ) async throws -> Page {
        let base = baseURLs[served.count % baseURLs.count]
        served.append(base)
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let cookie = jar.header(for: base + path), !headers.contains(where: { $0.0 == "Cookie" }) {
            request.headers.add(name: "Cookie", value: cookie)
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let acceptLanguage, !headers.contains(where: { $0.0.lowercased() == "accept-language" }) {
            request.headers.add(name: "Accept-Language", value: acceptLanguage)
        }
        if let hostName { request.headers.replaceOrAdd(name: "Host", value: hostName) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(body)
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        setCookieHeaders += response.headers["Set-Cookie"]
        jar.store(setCookie: response.headers["Set-Cookie"])
        let bytes = try await response.body.collect(upTo: 1 << 22)
        transcript.append(
            "\(response.status.code)\n" + response.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n\n" + String(buffer: bytes)
        )
        locations += response.headers["Location"]
        if following, response.status.code == 303, let location = response.headers.first(name: "Location"), location.hasPrefix("/") {
            return try await get(location)
        }
        return Page(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, html: String(buffer: bytes))
    }
}
