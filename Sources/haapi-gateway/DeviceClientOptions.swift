import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIHostTools
import Logging

/// `--via`, `--device-client` and `--device-client-secret-file`, shared by `login`, `keep` and `logout`: use a central
/// gateway as a device client (RFC 8628) instead of a local gateway and its upstream.
struct DeviceClientOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            A central haapi-gateway to sign in through as a device client (RFC 8628) instead of starting a local one: its URL (https; \
            http only on a loopback address).
            """,
            valueName: "url"
        )
    )
    var via: String?

    @Option(name: .customLong("device-client"), help: ArgumentHelp("The device client's id at the central gateway (with --via).", valueName: "id"))
    var deviceClient: String?

    @Option(
        name: .customLong("device-client-secret-file"),
        help: ArgumentHelp("File holding the device client's secret (with --via); without it the device is a public client.", valueName: "file")
    )
    var deviceClientSecretFile: String?

    func validate() throws {
        guard let via else {
            if deviceClient != nil || deviceClientSecretFile != nil {
                throw ValidationError(
                    "--device-client and --device-client-secret-file belong to --via (a central gateway); give --via URL or drop them"
                )
            }
            return
        }
        do {
            _ = try AuthorizationServerMetadata.issuer(via)
        } catch {
            throw ValidationError("--via: \(error.message)")
        }
        guard deviceClient != nil else { throw ValidationError("--via needs --device-client, the id of this device's client at the central gateway") }
    }

    /// Refuses the local gateway's options with `--via`: they would configure a gateway that is not started.
    /// - Parameter options: The local gateway's options.
    func validate(against options: ConfigurationOptions) throws {
        guard via != nil else { return }
        let local = options.localGatewayFlags
        guard local.isEmpty else {
            throw ValidationError(
                """
                --via signs in through a central gateway, so the local gateway's \(local.joined(separator: ", ")) cannot be used with \
                it; drop \(local.count == 1 ? "it" : "them") or --via
                """
            )
        }
    }

    /// The central gateway's URL, when `--via` is given (checked by ``validate()``).
    var gateway: URL? { via.flatMap { try? AuthorizationServerMetadata.issuer($0) } }

    /// The device client; exits 78 when its secret file cannot be read.
    func credentials() -> DeviceClientCredentials {
        do {
            return try loadedCredentials()
        } catch {
            exitWith("haapi-gateway: \(error.message)", status: error.exitStatus)
        }
    }

    /// The device client, or why not (78: its secret file cannot be read).
    func loadedCredentials() throws(HostTokenProblem) -> DeviceClientCredentials {
        do {
            return try DeviceClientCredentials.load(clientID: deviceClient ?? "", secretFile: deviceClientSecretFile)
        } catch {
            throw HostTokenProblem(error.message, exitStatus: error.exitStatus)
        }
    }

    /// Reads the central gateway's metadata and sets up the device client; exits when that fails (78 bad configuration,
    /// 1 otherwise).
    func connect(to gateway: URL, logger: Logger) async -> DeviceAuthorizationClient {
        do {
            return try await connected(to: gateway, logger: logger)
        } catch {
            exitWith("haapi-gateway: \(error.message)", status: error.exitStatus)
        }
    }

    /// Reads the central gateway's metadata and sets up the device client, or says why not (78 bad configuration, 1
    /// otherwise), for a command that goes on after a failed refresh (`proxy`).
    func connected(to gateway: URL, logger: Logger) async throws(HostTokenProblem) -> DeviceAuthorizationClient {
        let credentials = try loadedCredentials()
        do {
            return try await DeviceAuthorizationClient.connect(to: gateway, credentials: credentials, logger: logger)
        } catch {
            throw HostTokenProblem(error.message, exitStatus: error.exitStatus)
        }
    }
}
