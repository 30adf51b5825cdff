import Foundation
import HAAPIGateway
import Logging

/// `--via`, `--device-client` and `--device-client-secret-file`, shared by `login`, `keep`, `logout`, `token`, the
/// credential helpers and `proxy`: a central gateway to use as a device client (RFC 8628) instead of a local gateway and
/// its upstream. Problems are values (``HostTokenProblem``, status 64 for a usage mistake).
public struct DeviceClientFlags: Sendable {
    /// `--via`: the central gateway's URL.
    public var via: String?
    /// `--device-client`: the device client's id there.
    public var deviceClient: String?
    /// `--device-client-secret-file`.
    public var deviceClientSecretFile: String?

    /// - Parameters:
    ///   - via: `--via`.
    ///   - deviceClient: `--device-client`.
    ///   - deviceClientSecretFile: `--device-client-secret-file`.
    public init(via: String? = nil, deviceClient: String? = nil, deviceClientSecretFile: String? = nil) {
        self.via = via
        self.deviceClient = deviceClient
        self.deviceClientSecretFile = deviceClientSecretFile
    }

    /// Refuses a device client without `--via`, a `--via` that is not a gateway's URL, and `--via` without `--device-client`.
    public func validate() throws(HostTokenProblem) {
        guard let via else {
            if deviceClient != nil || deviceClientSecretFile != nil {
                throw HostTokenProblem(
                    "--device-client and --device-client-secret-file belong to --via (a central gateway); give --via URL or drop them",
                    exitStatus: 64
                )
            }
            return
        }
        do {
            _ = try AuthorizationServerMetadata.issuer(via)
        } catch {
            throw HostTokenProblem("--via: \(error.message)", exitStatus: 64)
        }
        guard deviceClient != nil else {
            throw HostTokenProblem("--via needs --device-client, the id of this device's client at the central gateway", exitStatus: 64)
        }
    }

    /// Refuses the local gateway's flags with `--via`: they would configure a gateway that is not started.
    /// - Parameter flags: The local gateway's flags.
    public func validate(against flags: ConfigurationFlags) throws(HostTokenProblem) {
        guard via != nil else { return }
        let local = flags.localGatewayFlags
        guard local.isEmpty else {
            let drop = local.count == 1 ? "it" : "them"
            throw HostTokenProblem(
                "--via signs in through a central gateway, so the local gateway's \(local.joined(separator: ", ")) cannot be used with it; drop \(drop) or --via",
                exitStatus: 64
            )
        }
    }

    /// The central gateway's URL, when `--via` is given (checked by ``validate()``).
    public var gateway: URL? { via.flatMap { try? AuthorizationServerMetadata.issuer($0) } }

    /// The flags a refresh or revocation of the tokens in `tokenPath` uses: tokens `login --via` got from a central gateway
    /// go back there, as the device client it recorded, unless the command names an upstream or another gateway.
    /// - Parameter upstream: `--upstream`, when given.
    public func forTokens(in tokenPath: String, upstream: String?) -> DeviceClientFlags {
        guard via == nil, upstream == nil, let origin = TokenFile.origin(of: tokenPath), origin.issuedBy == .gateway else { return self }
        return DeviceClientFlags(via: origin.issuer, deviceClient: deviceClient ?? origin.clientID, deviceClientSecretFile: deviceClientSecretFile)
    }

    /// The device client, or why not (78: its secret file cannot be read).
    public func credentials() throws(HostTokenProblem) -> DeviceClientCredentials {
        do {
            return try DeviceClientCredentials.load(clientID: deviceClient ?? "", secretFile: deviceClientSecretFile)
        } catch {
            throw HostTokenProblem(error.message, exitStatus: error.exitStatus)
        }
    }

    /// Reads the central gateway's metadata and sets up the device client, or says why not (78 bad configuration, 1
    /// otherwise).
    public func connect(to gateway: URL, logger: Logger) async throws(HostTokenProblem) -> DeviceAuthorizationClient {
        let credentials = try credentials()
        do {
            return try await DeviceAuthorizationClient.connect(to: gateway, credentials: credentials, logger: logger)
        } catch {
            throw HostTokenProblem(error.message, exitStatus: error.exitStatus)
        }
    }
}
