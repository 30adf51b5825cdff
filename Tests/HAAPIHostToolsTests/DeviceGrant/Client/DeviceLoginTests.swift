import Foundation
import HAAPI
import Logging
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// `login --via` in the library: a whole sign-in against a scripted gateway, the banner it shows, and the report that
/// writes the token file.
@Suite("Device login")
struct DeviceLoginTests {
    static func tokenPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("device-login-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory.appendingPathComponent("tokens.json").path
    }

    static func login(
        _ server: ScriptedAuthorizationServer,
        timeoutSeconds: Int = 600
    ) async throws(DeviceClientError) -> (LoginOutcome, [DeviceAuthorizationGrant]) {
        let login = DeviceLogin(
            gateway: URL(string: ScriptedAuthorizationServer.issuer)!,
            credentials: DeviceClientCredentials(clientID: "pi", secret: "s"),
            timeoutSeconds: timeoutSeconds
        )
        var announced: [DeviceAuthorizationGrant] = []
        let outcome = try await login.run(transport: server.transport, clock: server.clock, logger: .quiet) { announced.append($0) }
        return (outcome, announced)
    }

    @Test("signed in: the tokens go to the token file with mode 0600, and the summary names the subject but shows no token")
    func success() async throws {
        let server = ScriptedAuthorizationServer(tokenAnswers: [.pending(), .tokens()])
        let (outcome, announced) = try await Self.login(server)
        #expect(announced.map(\.userCode) == ["WDJB-MJHT"])
        let path = try Self.tokenPath()
        let report = LoginReport.conclude(outcome, tokenPath: path, json: false)
        #expect(report.exitStatus == 0)
        #expect(
            report.standardOutput
                == "Signed in as alice with scopes openid profile; the access token expires in 300 s. Tokens written to \(path) (mode 0600).\n"
        )
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let written = try TokenFile.read(path).tokens
        #expect(
            written.accessToken == "gateway-access" && written.refreshToken == "gateway-refresh"
                && written.idToken == ScriptedAuthorizationServer.idToken
        )

        let json = LoginReport.conclude(outcome, tokenPath: try Self.tokenPath(), json: true)
        for secret in ["gateway-access", "gateway-refresh", "secret-device-code"] {
            #expect(!(report.standardOutput ?? "").contains(secret) && !(json.standardOutput ?? "").contains(secret))
        }
        #expect(json.standardOutput?.contains(#""outcome":"success""#) == true && json.standardOutput?.contains(#""subject":"alice""#) == true)
    }

    @Test("denied exits 1 with the reason; an expired code or the device's timeout exits 2; no token file either way")
    func failures() async throws {
        let path = try Self.tokenPath()
        let (denied, _) = try await Self.login(ScriptedAuthorizationServer(tokenAnswers: [.error("access_denied")]))
        let deniedReport = LoginReport.conclude(denied, tokenPath: path, json: true)
        #expect(deniedReport.exitStatus == 1)
        #expect(deniedReport.standardError == "haapi-gateway: the sign-in failed: access_denied: scripted\n")
        #expect(deniedReport.standardOutput == #"{"error":"access_denied","errorDescription":"scripted","outcome":"error"}"# + "\n")

        let (expired, _) = try await Self.login(ScriptedAuthorizationServer(tokenAnswers: [.error("expired_token")]))
        let expiredReport = LoginReport.conclude(expired, tokenPath: path, json: true)
        #expect(expiredReport.exitStatus == 2)
        #expect(expiredReport.standardOutput == #"{"outcome":"timeout"}"# + "\n")
        #expect(expiredReport.standardError?.contains("the code expired") == true)

        let (timedOut, _) = try await Self.login(ScriptedAuthorizationServer(tokenAnswers: [.pending()]), timeoutSeconds: 30)
        let timedOutReport = LoginReport.conclude(timedOut, tokenPath: path, json: false)
        #expect(timedOutReport.exitStatus == 2)
        #expect(timedOutReport.standardError == "haapi-gateway: no sign-in within 30 s; run the command again for a new code\n")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("no device authorization: an error before anything is shown, and no polling")
    func refusedBeforePolling() async throws {
        let server = ScriptedAuthorizationServer(deviceAuthorization: .error("unauthorized_client"))
        await #expect {
            _ = try await Self.login(server)
        } throws: { error in
            (error as? DeviceClientError)?.message.contains("unauthorized_client") == true
        }
        #expect(server.requests(to: "/oauth/token").isEmpty)
    }

    @Test("the banner: the link with the code in it, the address and code to type, a QR code of the link on request; never the device code")
    func banner() throws {
        let grant = DeviceAuthorizationGrant(
            deviceCode: "secret-device-code",
            userCode: "WDJB-MJHT",
            verificationURI: URL(string: "https://gateway.example/device")!,
            verificationURIComplete: URL(string: "https://gateway.example/device?user_code=WDJB-MJHT")!,
            expiresIn: .seconds(600)
        )
        let plain = LoginBanner.device(grant, qr: false)
        #expect(plain.contains("    https://gateway.example/device?user_code=WDJB-MJHT\n"))
        #expect(plain.contains("go to https://gateway.example/device and enter the code WDJB-MJHT"))
        #expect(plain.contains("within 10 minutes"))
        #expect(!plain.contains("█"))
        let withQR = LoginBanner.device(grant, qr: true)
        let picture = try QRCode.encode("https://gateway.example/device?user_code=WDJB-MJHT").terminalString()
        #expect(withQR.contains(picture))
        for text in [plain, withQR] { #expect(!text.contains("secret-device-code")) }

        let typingOnly = DeviceAuthorizationGrant(
            deviceCode: "d",
            userCode: "WDJB-MJHT",
            verificationURI: URL(string: "https://gateway.example/device")!,
            verificationURIComplete: nil,
            expiresIn: .seconds(90)
        )
        let typed = LoginBanner.device(typingOnly, qr: false)
        #expect(typed.contains("go to https://gateway.example/device and enter the code WDJB-MJHT (within 90 seconds)"))
        #expect(!typed.contains("user_code="))
    }
}
