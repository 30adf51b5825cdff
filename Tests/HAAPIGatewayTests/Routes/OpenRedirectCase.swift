import Testing

/// One row of oauth2-proxy's open-redirect table (`pkg/app/redirect/validator_test.go`, "IsValidRedirect"), ported as
/// test data: the name and input as written there, and whether oauth2-proxy accepts it for its test allowlist
/// (`foo.bar`, `.bar.foo`, `port.bar:8080`, `anyport.bar:*`, wildcard domains, …).
struct OpenRedirectCase: Sendable, CustomTestStringConvertible {
    let name: String
    let target: String
    let acceptedByOAuth2Proxy: Bool

    var testDescription: String { name }

    /// Whether the target is an absolute http(s) URL written without whitespace, control characters or backslashes:
    /// the only kind the gateway lets an operator configure as `completion.redirectURL`.
    var isCleanAbsoluteURL: Bool {
        (target.hasPrefix("http://") || target.hasPrefix("https://"))
            && !target.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control || $0 == "\\" }
    }

    static let table: [OpenRedirectCase] = [
        .init(name: "No Redirect", target: "", acceptedByOAuth2Proxy: false),
        .init(name: "Single Slash", target: "/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Double Slash", target: "//redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Valid HTTP", target: "http://foo.bar/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Valid HTTPS", target: "https://foo.bar/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Invalid HTTP subdomain", target: "http://baz.foo.bar/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Invalid HTTPS subdomain", target: "https://baz.foo.bar/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Valid HTTP subdomain", target: "http://baz.bar.foo/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Valid HTTPS subdomain", target: "https://baz.bar.foo/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Valid HTTP Domain", target: "http://bar.foo/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Invalid HTTP Similar Domain", target: "http://foo.bar.evil.corp/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Invalid HTTPS Similar Domain", target: "https://foo.bar.evil.corp/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Invalid HTTP RD Parameter", target: "http://evil.corp/redirect?rd=foo.bar", acceptedByOAuth2Proxy: false),
        .init(name: "Invalid HTTPS RD Parameter", target: "https://evil.corp/redirect?rd=foo.bar", acceptedByOAuth2Proxy: false),
        .init(name: "Invalid Port and Domain", target: "https://evil.corp:3838/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Invalid Port on Allowed Domain", target: "http://foo.bar:3838/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Invalid Port on Allowed Subdomain", target: "http://baz.bar.foo:3838/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Valid Specified Port and Domain", target: "http://port.bar:8080/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Invalid Specified Port and Domain", target: "http://port.bar:3838/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Valid Specified Port and Subdomain", target: "http://foo.sub.port.bar:8080/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Invalid Specified Port andSubdomain", target: "http://foo.subport.bar:3838/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Valid Any Port, Specified Domain", target: "http://anyport.bar:8080/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Valid Different Any Port, Specified Domain", target: "http://anyport.bar:8081/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Valid Any Port, Specified Subdomain", target: "http://a.sub.anyport.bar:8080/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Valid Different Any Port, Specified Subdomain", target: "http://a.sub.anyport.bar:8081/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Escape Double Slash", target: "/\\evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Space Single Slash", target: "/ /evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Space Double Slash", target: "/ \\evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Tab Single Slash", target: "/\t/evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Tab Double Slash", target: "/\t\\evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Vertical Tab Single Slash", target: "/\u{0B}/evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Vertical Tab Double Slash", target: "/\u{0B}\\evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "New Line Single Slash", target: "/\n/evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "New Line Double Slash", target: "/\n\\evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Carriage Return Single Slash", target: "/\r/evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Carriage Return Double Slash", target: "/\r\\evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Double Tab", target: "/\t/\t\\evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Triple Tab 1", target: "/\t\t/\t/evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Triple Tab 2", target: "/\t\t\\\t/evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Quad Tab 1", target: "/\t\t/\t\t\\evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Quad Tab 2", target: "/\t\t\\\t\t/evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Relative Path", target: "/./\\evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Relative Subpath", target: "/./../../\\evil.com", acceptedByOAuth2Proxy: false),
        .init(name: "Valid HTTP Wildcard Subdomain", target: "http://foo.wildcard.bar/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Valid HTTPS Wildcard Subdomain", target: "https://foo.wildcard.bar/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Valid HTTP Wildcard Subdomain Root", target: "http://wildcard.bar/redirect", acceptedByOAuth2Proxy: true),
        .init(name: "Valid HTTPS Wildcard Subdomain Root", target: "https://wildcard.bar/redirect", acceptedByOAuth2Proxy: true),
        .init(
            name: "Valid HTTP Wildcard Subdomain anyport",
            target: "http://foo.wildcard.sub.anyport.bar:4242/redirect",
            acceptedByOAuth2Proxy: true
        ),
        .init(
            name: "Valid HTTPS Wildcard Subdomain anyport",
            target: "https://foo.wildcard.sub.anyport.bar:4242/redirect",
            acceptedByOAuth2Proxy: true
        ),
        .init(
            name: "Valid HTTP Wildcard Subdomain Anyport Root",
            target: "http://wildcard.sub.anyport.bar:4242/redirect",
            acceptedByOAuth2Proxy: true
        ),
        .init(
            name: "Valid HTTPS Wildcard Subdomain Anyport Root",
            target: "https://wildcard.sub.anyport.bar:4242/redirect",
            acceptedByOAuth2Proxy: true
        ),
        .init(
            name: "Valid HTTP Wildcard Subdomain Defined Port",
            target: "http://foo.wildcard.sub.port.bar:8080/redirect",
            acceptedByOAuth2Proxy: true
        ),
        .init(
            name: "Valid HTTPS Wildcard Subdomain Defined Port",
            target: "https://foo.wildcard.sub.port.bar:8080/redirect",
            acceptedByOAuth2Proxy: true
        ),
        .init(
            name: "Valid HTTP Wildcard Subdomain Defined Port Root",
            target: "http://wildcard.sub.port.bar:8080/redirect",
            acceptedByOAuth2Proxy: true
        ),
        .init(
            name: "Valid HTTPS Wildcard Subdomain Defined Port Root",
            target: "https://wildcard.sub.port.bar:8080/redirect",
            acceptedByOAuth2Proxy: true
        ),
        .init(name: "Missing Protocol Root Domain", target: "foo.bar/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Missing Protocol Wildcard Subdomain", target: "proxy.wildcard.bar/redirect", acceptedByOAuth2Proxy: false),
    ]

    /// Absolute URLs that look clean to a person but hide their real host or smuggle characters parsers disagree on
    /// (the encoded-whitespace and user-info variants of the CVEs behind oauth2-proxy's table).
    static let disguisedAbsolute: [OpenRedirectCase] = [
        .init(name: "User info look-alike", target: "https://foo.bar@evil.corp/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "User info with password", target: "https://foo.bar:443@evil.corp/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Backslash before host", target: "https:\\\\evil.corp/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Backslash after host", target: "https://foo.bar\\@evil.corp/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Tab in host", target: "https://foo.bar\t.evil.corp/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Newline after host (header splitting)", target: "https://foo.bar/\r\nSet-Cookie: x=y", acceptedByOAuth2Proxy: false),
        .init(name: "Protocol-relative", target: "//evil.corp/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "Three slashes", target: "http:///evil.corp/redirect", acceptedByOAuth2Proxy: false),
        .init(name: "JavaScript", target: "javascript:alert(1)", acceptedByOAuth2Proxy: false),
        .init(name: "Data URL", target: "data:text/html,<script>alert(1)</script>", acceptedByOAuth2Proxy: false),
    ]
}
