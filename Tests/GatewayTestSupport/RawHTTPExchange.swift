import Foundation

/// One HTTP/1.1 exchange written byte for byte on a loopback TCP connection (``RawConnection``): for requests no HTTP
/// client library sends (two `Host` headers, a foreign `Host`, a path with `//`).
enum RawHTTPExchange {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `request` (with `Connection: close`) to 127.0.0.1:`port`, from the loopback address `source` when given (all
    /// of 127/8 is loopback on Linux: another client address), and returns the status code and the whole answer (what
    /// arrived until the server closed the connection, at most 30 s).
    static func send(_ request: String, port: Int, from source: String = "127.0.0.1") async throws -> (status: Int, text: String) {
        let connection = try RawConnection(to: port, from: source)
        defer { connection.close() }
        guard connection.send(request) else { throw Failure(description: "write failed") }
        _ = await connection.waitForClose(timeout: .seconds(30))
        let text = connection.receivedText
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text)
    }
}
