import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// ``DeviceClientFlags``: `--via` and the device client checked, refused beside a local gateway's flags, and the central
/// gateway a token file's refresh goes back to.
@Suite("The device client's flags")
struct DeviceClientFlagsTests {
    /// The problem `check` throws, if any.
    static func problem(_ check: () throws -> Void) -> HostTokenProblem? {
        do {
            try check()
            return nil
        } catch {
            return error as? HostTokenProblem
        }
    }

    @Test("without --via: nothing, or a device client refused; with --via: a gateway's URL and a device client needed")
    func validate() {
        #expect(Self.problem { try DeviceClientFlags().validate() } == nil)
        let stray = Self.problem { try DeviceClientFlags(deviceClient: "d").validate() }
        #expect(stray?.message.hasPrefix("--device-client and --device-client-secret-file belong to --via") == true)
        #expect(stray?.exitStatus == 64)
        #expect(
            Self.problem { try DeviceClientFlags(via: "http://gateway.example", deviceClient: "d").validate() }?.message.hasPrefix("--via: ") == true
        )
        let noClient = Self.problem { try DeviceClientFlags(via: "https://gateway.example").validate() }
        #expect(noClient?.message == "--via needs --device-client, the id of this device's client at the central gateway")
        #expect(Self.problem { try DeviceClientFlags(via: "https://gateway.example", deviceClient: "d").validate() } == nil)
        #expect(DeviceClientFlags(via: "https://gateway.example", deviceClient: "d").gateway?.host == "gateway.example")
        #expect(DeviceClientFlags().gateway == nil)
    }

    @Test("--via refuses the local gateway's flags, naming them; --log-level alone is not one")
    func againstLocalFlags() {
        let device = DeviceClientFlags(via: "https://gateway.example", deviceClient: "d")
        var flags = ConfigurationFlags()
        flags.logLevel = "debug"
        #expect(Self.problem { try device.validate(against: flags) } == nil)
        flags.host = "0.0.0.0"
        #expect(
            Self.problem { try device.validate(against: flags) }?.message
                == "--via signs in through a central gateway, so the local gateway's --host cannot be used with it; drop it or --via"
        )
        flags.port = "1"
        #expect(
            Self.problem { try device.validate(against: flags) }?.message.hasSuffix("--host, --port cannot be used with it; drop them or --via")
                == true
        )
        #expect(Self.problem { try DeviceClientFlags().validate(against: flags) } == nil)
    }

    @Test("tokens login --via recorded go back to that gateway as its device client, unless an upstream or a gateway is named")
    func forTokens() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("device-flags-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("tokens.json").path
        let tokens = OAuthTokens(accessToken: "a", expiresIn: 300, refreshToken: "r", tokenType: "Bearer", scope: nil, idToken: nil)
        try TokenFile.write(.success(tokens), to: path, origin: TokenOrigin(issuedBy: .gateway, issuer: "https://central.example", clientID: "dev"))
        let recorded = DeviceClientFlags().forTokens(in: path, upstream: nil)
        #expect(recorded.via == "https://central.example")
        #expect(recorded.deviceClient == "dev")
        #expect(DeviceClientFlags(deviceClient: "other").forTokens(in: path, upstream: nil).deviceClient == "other")
        #expect(DeviceClientFlags().forTokens(in: path, upstream: "https://idp.example").via == nil)
        #expect(DeviceClientFlags(via: "https://else.example", deviceClient: "x").forTokens(in: path, upstream: nil).via == "https://else.example")
        #expect(DeviceClientFlags().forTokens(in: directory.appendingPathComponent("none.json").path, upstream: nil).via == nil)
    }
}
