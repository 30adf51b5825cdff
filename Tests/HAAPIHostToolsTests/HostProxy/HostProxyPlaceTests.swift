import Foundation
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// ``HostProxy/place(to:listen:flags:)`` and the line `proxy` prints once it listens.
@Suite("Where the proxy forwards and listens")
struct HostProxyPlaceTests {
    /// The problem of a place, if any.
    static func problem(to: String, listen: String, flags: ConfigurationFlags = ConfigurationFlags()) -> HostTokenProblem? {
        do {
            _ = try HostProxy.place(to: to, listen: listen, flags: flags)
            return nil
        } catch {
            return error
        }
    }

    @Test("an https target and a loopback address are taken; --host, --port, a bad target or address refused with 78")
    func place() throws {
        let place = try HostProxy.place(to: "https://api.example/v1", listen: "127.0.0.1:0", flags: ConfigurationFlags())
        #expect(place.target.origin == "https://api.example")
        #expect(place.address.port == 0)
        #expect(Self.problem(to: "http://api.example", listen: "127.0.0.1:0")?.exitStatus == 78)
        #expect(Self.problem(to: "https://api.example", listen: "0.0.0.0:80")?.exitStatus == 78)
        var flags = ConfigurationFlags()
        flags.port = "9000"
        #expect(
            Self.problem(to: "https://api.example", listen: "127.0.0.1:0", flags: flags)
                == HostTokenProblem(
                    "--host and --port set login's local gateway; the proxy listens where --listen says (ADDRESS:PORT)",
                    exitStatus: 78
                )
        )
    }

    @Test("the line once it listens names the address, the target and the token file")
    func listeningLine() throws {
        let target = try ProxyTarget("https://api.example/v1")
        let line = HostProxy.listeningLine(URL(string: "http://127.0.0.1:4180")!, target: target, tokenFile: "/t")
        #expect(line == "haapi-gateway proxy: http://127.0.0.1:4180 forwards to https://api.example/v1 with the sign-in in /t\n")
    }
}
