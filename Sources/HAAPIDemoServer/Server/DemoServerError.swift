/// Why the demo server could not start. The description never contains secrets.
public struct DemoServerError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Equatable, Sendable {
        case startFailed(String)
        case clientKeyNotWritten(String)
    }

    private let code: Code

    /// The server did not start listening.
    static func startFailed(_ reason: String) -> DemoServerError { .init(code: .startFailed(reason)) }
    /// The `private_key_jwt` key file could not be written.
    static func clientKeyNotWritten(_ path: String) -> DemoServerError { .init(code: .clientKeyNotWritten(path)) }

    public var description: String {
        switch code {
        case .startFailed(let reason): "The demo server did not start: \(reason)"
        case .clientKeyNotWritten(let path): "The demo client key could not be written to \(path)"
        }
    }
}
