import ArgumentParser
import Foundation

/// A base URL on this machine (`http://127.x.x.x:port` or `http://localhost:port`); load goes nowhere else.
struct LoopbackURL: ExpressibleByArgument, Sendable {
    let url: URL

    init?(argument: String) {
        guard let url = URL(string: argument), url.scheme == "http", let host = url.host,
            host == "localhost" || host.hasPrefix("127.") || host == "::1"
        else { return nil }
        self.url = url
    }

    /// The base URL without a trailing slash.
    var base: String {
        url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
    }
}
